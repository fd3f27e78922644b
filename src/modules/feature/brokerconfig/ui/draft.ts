// The document being edited: its text (the editor's and the form's), the revision it started from (a save names it,
// so a revision saved meanwhile is a 409 revision-conflict instead of a silent overwrite) and where it came from.
export interface Draft {
  readonly text: string;
  readonly baseRevision: number;
  /** Where the text came from, said above the editor: "revision 3", "revision 2 (restored)", a recommendation. */
  readonly origin: string;
}
