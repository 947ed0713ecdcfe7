// npm start: build the production bundle when dist/ is missing or older than the sources,
// then serve it on http://127.0.0.1:8080/ (PORT=... to change).
//
// This is deliberately simple: a static build and a static server. For live reload while
// editing, run `npx webpack serve --mode development` instead (same address).
import { build, isStale, stopBuild } from "./build.mjs";
import { startServer, distDir } from "./serve.mjs";

const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);

let srv = null;
const stop = async () => {
  stopBuild();
  if (srv) await srv.close();
  process.exit(srv ? 0 : 130);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

try {
  if (await isStale()) await build({ mode: "production" });
  else console.log("dist/ is up to date (delete dist/ to force a rebuild)");
} catch (err) {
  console.error(String(err.message ?? err));
  process.exit(1);
}

try {
  srv = await startServer({ root: distDir, port });
  console.log("");
  console.log(`Tree Wind Sandbox: ${srv.url}`);
  console.log("");
  console.log("(Ctrl-C to stop)");
} catch (err) {
  console.error(err.code === "EADDRINUSE" ? `port ${port} is already in use: stop the other server or run PORT=8081 npm start` : String(err));
  process.exit(1);
}
