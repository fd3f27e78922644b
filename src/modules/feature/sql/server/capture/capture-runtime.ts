// The capture service of this worker process, found by the reconcile job: the scheduler hands jobs only a database
// handle, while a pass needs the worker's cluster ownership, its reconciler and its consumers. The capture worker
// service registers itself here when it starts and leaves when it stops; a process without it reconciles nothing.
import type { CapturePassOutcome } from './capture-reconciler.ts';

export interface CaptureRuntime {
  /** One reconcile pass over every cluster this worker owns, its consumers following; the outcome per cluster. */
  reconcileOwned(): Promise<CapturePassOutcome[]>;
}

let registered: CaptureRuntime | undefined;

export function registerCaptureRuntime(runtime: CaptureRuntime): () => void {
  registered = runtime;
  return () => {
    if (registered === runtime) registered = undefined;
  };
}

export function captureRuntime(): CaptureRuntime | undefined {
  return registered;
}
