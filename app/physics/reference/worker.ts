/**
 * The reference solver in a Web Worker: the page posts a ReferenceRequest, the worker posts
 * { progress } while it works and { result } (or { error }) at the end. The frame loop never waits.
 */
import { runReference, type ReferenceRequest } from "./run";

interface WorkerScope {
  onmessage: ((e: { data: ReferenceRequest }) => void) | null;
  postMessage(message: unknown): void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (e) => {
  try {
    const result = runReference(e.data, (fraction, text) => scope.postMessage({ progress: { fraction, text } }));
    scope.postMessage({ result });
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
