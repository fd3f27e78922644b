// rr's contribution to sql.captured-messages: every captured message, once indexed, reaches the correlator of the
// worker that owns its cluster (the capture consumers run in that worker).
import { currentRuntime } from '../runtime/runtime-holder.ts';
import type { CapturedShape } from './observed.ts';

export function captureListener(messages: readonly CapturedShape[]): void {
  currentRuntime()?.captured(messages);
}
