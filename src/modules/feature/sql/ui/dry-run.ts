// What a dry run of a subscription change says: the server's sentence on what would happen next, marked as a dry run
// once (the server's own words may already say so).
export function dryRunSentence(next: string): string {
  return /^dry run/i.test(next) ? next : `Dry run: nothing changed. ${next}`;
}
