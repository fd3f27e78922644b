// What a plugin process says, on its way to the host's log: stdout and stderr line by line, and its api.log calls, all
// under one budget (a plugin printing in a loop must not flood the host's log); and the tail of stderr, kept because
// that is where V8 says why it died ("heap out of memory").
import type { Readable } from 'node:stream';

const LINES_PER_MINUTE = 600;
const LINE_CHARS = 2_000;
const TAIL_CHARS = 8_000;

type Log = (level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>) => void;

/** `log` limited to LINES_PER_MINUTE; what is dropped is counted and said once the minute is over. */
export function budgetedLog(log: Log): Log {
  let windowStart = Date.now();
  let lines = 0;
  let dropped = 0;
  return (level, message, fields) => {
    const now = Date.now();
    if (now - windowStart > 60_000) {
      if (dropped > 0)
        log('warn', `${dropped} log lines of the plugin dropped (over ${LINES_PER_MINUTE} a minute)`, {});
      windowStart = now;
      lines = 0;
      dropped = 0;
    }
    if (++lines > LINES_PER_MINUTE) dropped += 1;
    else log(level, message, fields);
  };
}

export function captureOutput(
  streams: { stdout: Readable | null; stderr: Readable | null },
  log: Log,
): { stderrTail: () => string } {
  let tail = '';

  function line(stream: 'stdout' | 'stderr', text: string) {
    if (text.trim() !== '') log(stream === 'stdout' ? 'info' : 'warn', text.slice(0, LINE_CHARS), { stream });
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
