// A plugin process's stdout and stderr: forwarded line by line to the host's log under a budget (a plugin printing in
// a loop must not flood it), and the tail of stderr kept, where V8 says why it died ("heap out of memory").
import type { Readable } from 'node:stream';

const LINES_PER_MINUTE = 120;
const LINE_CHARS = 2_000;
const TAIL_CHARS = 8_000;

export function captureOutput(
  streams: { stdout: Readable | null; stderr: Readable | null },
  log: (level: 'info' | 'warn', message: string, fields: Record<string, unknown>) => void,
): { stderrTail: () => string } {
  let tail = '';
  let windowStart = Date.now();
  let lines = 0;
  let dropped = 0;

  function line(stream: 'stdout' | 'stderr', text: string) {
    if (text.trim() === '') return;
    const now = Date.now();
    if (now - windowStart > 60_000) {
      if (dropped > 0) log('warn', `${dropped} lines of plugin output dropped`, { stream });
      windowStart = now;
      lines = 0;
      dropped = 0;
    }
    if (++lines > LINES_PER_MINUTE) dropped += 1;
    else log(stream === 'stdout' ? 'info' : 'warn', text.slice(0, LINE_CHARS), { stream });
  }

  for (const stream of ['stdout', 'stderr'] as const) {
    const readable = streams[stream];
    if (!readable) continue;
    readable.setEncoding('utf8');
    let partial = '';
    readable.on('data', (chunk: string) => {
      if (stream === 'stderr') tail = (tail + chunk).slice(-TAIL_CHARS);
      const parts = (partial + chunk).split('\n');
      partial = (parts.pop() ?? '').slice(-LINE_CHARS);
      for (const part of parts) line(stream, part);
    });
    readable.on('end', () => line(stream, partial));
    readable.on('error', () => undefined); // the child died mid-write: nothing to do
  }
  return { stderrTail: () => tail };
}
