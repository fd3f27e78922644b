// Why a plugin process ended, when the host did not end it itself: told from the phase it was in and from what it
// printed last (V8 says "heap out of memory" on stderr when the --max-old-space-size cap is hit).

export type PluginExitReason = 'stopped' | 'crashed' | 'memory' | 'cpu' | 'unresponsive' | 'activate-failed';

export interface PluginExit {
  reason: PluginExitReason;
  detail: string;
}

const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit|Allocation failed/i;

/** The error line of what the child printed last ("Error: boom"), not node's closing "Node.js v20…" line. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('Node.js v'));
  const said = lines.findLast((line) => /^(Uncaught )?\w*Error\b/.test(line)) ?? lines.at(-1);
  return said ? `: ${said.slice(0, 500)}` : '';
}

export function exitVerdict(ended: {
  /** "exited with code 1", "killed by SIGABRT". */
  how: string;
  endedIn: 'starting' | 'running' | 'stopping';
  stderr: string;
  memoryMb: number;
}): PluginExit {
  const { how, endedIn, stderr, memoryMb } = ended;
  if (HEAP_EXHAUSTED.test(stderr)) return { reason: 'memory', detail: `its heap (${memoryMb} MB) ran out` };
  if (endedIn === 'starting')
    return { reason: 'activate-failed', detail: `${how} before activate() finished${lastWords(stderr)}` };
  if (endedIn === 'stopping') return { reason: 'stopped', detail: how };
  return { reason: 'crashed', detail: `${how}${lastWords(stderr)}` };
}
