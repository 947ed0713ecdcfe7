/**
 * Reads a model from disk through the app's own loader (app/import/load.ts: @babylonjs/loaders,
 * the companions, the MTL fixes) under NullEngine. Node has Blob and File but no FileReader,
 * which Babylon reads picked files with: a small one over Blob is installed here.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { Scene } from "@babylonjs/core/scene";
import { readModel, type LoadedModel, type ModelFile } from "../../app/import/load";

class NodeFileReader {
  result: ArrayBuffer | string | null = null;
  error: Error | null = null;
  onload: ((e: { target: NodeFileReader }) => void) | null = null;
  onerror: ((e: { target: NodeFileReader }) => void) | null = null;
  onprogress: ((e: unknown) => void) | null = null;
  private listeners = new Map<string, ((e: { target: NodeFileReader }) => void)[]>();
  addEventListener(type: string, f: (e: { target: NodeFileReader }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), f]);
  }
  removeEventListener(): void {}
  abort(): void {}
  private done(type: "load" | "error"): void {
    const e = { target: this };
    (type === "load" ? this.onload : this.onerror)?.(e);
    for (const f of this.listeners.get(type) ?? []) f(e);
    for (const f of this.listeners.get("loadend") ?? []) f(e);
  }
  readAsArrayBuffer(b: Blob): void {
    b.arrayBuffer().then((r) => { this.result = r; this.done("load"); }, (e) => { this.error = e; this.done("error"); });
  }
  readAsText(b: Blob): void {
    b.text().then((r) => { this.result = r; this.done("load"); }, (e) => { this.error = e; this.done("error"); });
  }
  readAsDataURL(b: Blob): void {
    b.arrayBuffer().then((r) => { this.result = `data:${b.type || "application/octet-stream"};base64,${Buffer.from(r).toString("base64")}`; this.done("load"); });
  }
}
(globalThis as unknown as { FileReader: unknown }).FileReader ??= NodeFileReader;

/** The model file and every file in its folder (and sub-folders), as a person would drop them. */
export function filesBeside(path: string): ModelFile[] {
  const dir = dirname(path);
  const out: ModelFile[] = [{ name: relative(dir, path), data: new Blob([readFileSync(path)]) }];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (p !== path) out.push({ name: relative(dir, p), data: new Blob([readFileSync(p)]) });
    }
  };
  walk(dir);
  return out;
}

export function readModelFile(path: string, scene: Scene, only?: (name: string) => boolean): Promise<LoadedModel> {
  const files = filesBeside(path).filter((f, i) => i === 0 || !only || only(f.name));
  return readModel(files, scene);
}
