// A tiny static file server for the production build (dist/), with no dependencies beyond node.
//
//   node scripts/serve.mjs [port] [root]     (or PORT=8080 npm run serve)
//
// Port 0 picks a free port (the end-to-end tests use that). Responses are never cached, so a
// rebuilt bundle is what the next reload gets. For live reload while editing use
// `npx webpack serve --mode development` instead.
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
export const repoRoot = resolve(here, "..");
/** Where the production bundle goes: dist/, or DIST_DIR (lets two checkouts' runs build side by side). */
export const distDir = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : join(repoRoot, "dist");

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".lsys": "text/plain; charset=utf-8",
  ".glsl": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".glb": "model/gltf-binary",
  ".gltf": "model/gltf+json",
  ".bin": "application/octet-stream",
  ".obj": "text/plain; charset=utf-8",
  ".mtl": "text/plain; charset=utf-8",
  ".env": "application/octet-stream",
  ".dds": "application/octet-stream",
  ".webm": "video/webm",
  ".mp4": "video/mp4",
};

/** The Content-Type for a file name (application/octet-stream when unknown). */
export function mimeType(file) {
  return MIME[extname(file).toLowerCase()] ?? "application/octet-stream";
}

/**
 * Serves `root` on 127.0.0.1:`port` (0: a free port).
 * Resolves to { url, port, close } once listening; `url` ends with "/"; `close()` resolves
 * when the server has stopped (open keep-alive connections are cut).
 */
export async function startServer({ root = distDir, port = 8080, host = "127.0.0.1", log = false } = {}) {
  const base = resolve(root);
  const sockets = new Set();
  const server = createServer((req, res) => {
    handle(base, req, res, log).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(String(err && err.message ? err.message : err));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => {
      server.off("error", fail);
      ok();
    });
  });
  const actualPort = server.address().port;
  let closing = null;
  return {
    url: `http://${host}:${actualPort}/`,
    port: actualPort,
    server,
    close() {
      closing ??= new Promise((ok) => {
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}

async function handle(base, req, res, log) {
  const noCache = { "Cache-Control": "no-store, max-age=0", Pragma: "no-cache" };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...noCache, Allow: "GET, HEAD" });
    res.end();
    return;
  }
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  } catch {
    res.writeHead(400, noCache);
    res.end("bad request");
    return;
  }
  let file = normalize(join(base, pathname));
  if (file !== base && !file.startsWith(base + sep)) {
    res.writeHead(403, noCache);
    res.end("forbidden");
    return;
  }
  let info = await stat(file).catch(() => null);
  if (info && info.isDirectory()) {
    file = join(file, "index.html");
    info = await stat(file).catch(() => null);
  }
  if (!info || !info.isFile()) {
    if (log) console.log(`404 ${req.url}`);
    // Browsers ask for a favicon on their own; answer without an error in the console.
    if (pathname === "/favicon.ico") {
      res.writeHead(204, noCache);
      res.end();
      return;
    }
    res.writeHead(404, { ...noCache, "Content-Type": "text/plain; charset=utf-8" });
    res.end(`not found: ${pathname}`);
    return;
  }
  if (log) console.log(`200 ${req.url}`);
  res.writeHead(200, { ...noCache, "Content-Type": mimeType(file), "Content-Length": info.size });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on("error", () => res.destroy());
  stream.pipe(res);
}

/** Parses `[port] [root]` and PORT from the environment. */
function cli(argv) {
  const args = argv.filter((a) => !a.startsWith("-"));
  const port = Number(args[0] ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be 0..65535, got ${args[0] ?? process.env.PORT}`);
  return { port, root: args[1] ? resolve(args[1]) : distDir, log: argv.includes("--log") };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { port, root, log } = cli(process.argv.slice(2));
  const info = await stat(join(root, "index.html")).catch(() => null);
  if (!info) console.warn(`warning: ${join(root, "index.html")} not found; build first (npm run build) or use npm start`);
  try {
    const srv = await startServer({ root, port, log });
    console.log(`Serving ${root} at ${srv.url}`);
    const stop = () => srv.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  } catch (err) {
    console.error(err.code === "EADDRINUSE" ? `port ${port} is already in use (try: node scripts/serve.mjs 0)` : String(err));
    process.exit(1);
  }
}
