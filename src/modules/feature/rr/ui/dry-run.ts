// What a dry run of an expectation change says: that nothing changed, what saving would store, then the server's
// word on what happens next (without its own "Dry run: …" opening, said once here).
export function dryRunSentence(next: string, wouldStore: string): string {
  return `Dry run: nothing changed. ${wouldStore} ${next.replace(/^Dry run:[^.]*\.\s*/, '')}`;
}
