// In every process: the findings counted in memory (findings.ts, written at most every 5 s) are written when the
// process's runtime closes, before its database does, so a shutdown drops none of them.
import type { ProcessStartContext } from '@/modules/kernel/plugin/index.ts';
import { closeFindings } from './findings.ts';

export function start(context: ProcessStartContext): Promise<void> {
  context.onClose(() => closeFindings(context.db));
  return Promise.resolve();
}
