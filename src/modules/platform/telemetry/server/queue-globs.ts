// telemetry.queue-patterns as globs: comma-separated, trimmed, empty entries dropped (no globs: every queue).
export function parseQueueGlobs(text: string): string[] {
  return text
    .split(',')
    .map((glob) => glob.trim())
    .filter(Boolean);
}
