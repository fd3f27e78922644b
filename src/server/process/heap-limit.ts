// The web process's heap limit. Its live heap under load is small (about 180 MB after a full collection, flat over
// thousands of requests; docs/performance.md), but with V8's default limit (a quarter of the machine's memory, up
// to 4 GB) V8 lets the old generation grow to several times that before it collects, so the resident memory rose
// to 700–917 MB under the load bench. A limit makes it collect sooner instead; a live heap beyond it would stop the
// process (the supervisor restarts it), so the default leaves room over what was measured.
import { StartupError } from '@/modules/kernel/plugin/index.ts';

const WEB_HEAP_VARIABLE = 'FLOTILLA_WEB_MAX_HEAP_MB';
export const DEFAULT_WEB_HEAP_MB = 512;
const SMALLEST_MB = 256;

/**
 * Node's arguments for the web process: `--max-old-space-size` from FLOTILLA_WEB_MAX_HEAP_MB (default 512; `0`
 * leaves V8's own limit).
 */
export function webHeapArguments(env: Readonly<Record<string, string | undefined>>): string[] {
  const given = env[WEB_HEAP_VARIABLE]?.trim();
  const megabytes = given === undefined || given === '' ? DEFAULT_WEB_HEAP_MB : Number(given);
  if (megabytes === 0) return [];
  if (!Number.isInteger(megabytes) || megabytes < SMALLEST_MB)
    throw new StartupError([
      `${WEB_HEAP_VARIABLE} must be 0 (V8's own limit) or a whole number of megabytes of at least ${String(SMALLEST_MB)}, not "${String(given)}"`,
    ]);
  return [`--max-old-space-size=${String(megabytes)}`];
}
