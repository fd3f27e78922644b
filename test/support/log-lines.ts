// The log lines (src/base/log) a piece of code writes while a test runs: standard output is held, not printed, and
// read back as JSON objects. In a test run standard output is a pipe, so lines are JSON unless FLOTILLA_LOG_FORMAT
// says otherwise; a line that is not JSON fails the read rather than being missed silently.
import { vi } from 'vitest';

interface LogLine {
  readonly level: string;
  readonly module?: string;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

export interface CapturedLogs {
  lines(): LogLine[];
  restore(): void;
}

export function captureLogLines(): CapturedLogs {
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  return {
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as LogLine),
    restore: () => write.mockRestore(),
  };
}
