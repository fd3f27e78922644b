// The Builder's edits of a declared document: a divert, a queue or a bridge added, or an item removed. An addition is
// checked with the document's own schema, the one a save is checked with, so a bad entry is refused here with the
// field and the schema's sentence (a second divert of one name: "declared twice") and the document is left as it was.
import type { FieldError } from '../config-problem.ts';
import { configDocument, type ConfigDocument, type ConfigDocumentInput } from '../../server/model/document.ts';

/** The sections the Builder edits: the ones that route messages. */
export type BuilderSection = 'diverts' | 'queues' | 'bridges';
export type EntryOf<Section extends BuilderSection> = NonNullable<ConfigDocumentInput[Section]>[number];

export type EditResult = { readonly document: ConfigDocument } | { readonly errors: readonly FieldError[] };

/** A form's entry without its blank fields: an empty text box means "not set", which the schema spells as absent. */
export function withoutBlanks<Entry extends object>(entry: Entry): Entry {
  return Object.fromEntries(
    Object.entries(entry).flatMap(([key, value]: [string, unknown]) => {
      if (value === undefined || (typeof value === 'string' && value.trim() === '')) return [];
      if (Array.isArray(value)) {
        const kept = value.filter((item) => !(typeof item === 'string' && item.trim() === ''));
        return kept.length > 0 ? [[key, kept]] : [];
      }
      return [[key, typeof value === 'string' ? value.trim() : value]];
    }),
  ) as Entry;
}

/** The document with `entry` declared last in `section`, or the schema's refusals (paths within the entry). */
export function withEntry<Section extends BuilderSection>(
  document: ConfigDocument,
  section: Section,
  entry: EntryOf<Section>,
): EditResult {
  const index = document[section].length;
  const parsed = configDocument.safeParse({ ...document, [section]: [...document[section], withoutBlanks(entry)] });
  if (parsed.success) return { document: parsed.data };
  return {
    errors: parsed.error.issues.map((issue) => {
      const [head, at, ...rest] = issue.path;
      const own = head === section && at === index;
      return { path: (own ? rest : issue.path).map(String).join('.'), message: issue.message };
    }),
  };
}

export const addDivert = (document: ConfigDocument, divert: EntryOf<'diverts'>) =>
  withEntry(document, 'diverts', divert);
export const addQueue = (document: ConfigDocument, queue: EntryOf<'queues'>) => withEntry(document, 'queues', queue);
export const addBridge = (document: ConfigDocument, bridge: EntryOf<'bridges'>) =>
  withEntry(document, 'bridges', bridge);

/** The document without the named item of `section` (unchanged when it declares none of that name). */
export function withoutEntry(document: ConfigDocument, section: BuilderSection, name: string): ConfigDocument {
  return { ...document, [section]: document[section].filter((item) => item.name !== name) };
}
