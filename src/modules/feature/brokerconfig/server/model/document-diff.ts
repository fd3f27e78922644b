// What changed between two revisions, per item (a match or a name): added, removed, or changed with the fields that
// differ. History shows it; a save's audit row keeps its counts.
import type { ConfigDocument } from './document.ts';

export type DocumentSection = keyof ConfigDocument;
export const SECTIONS: readonly DocumentSection[] = [
  'addressSettings',
  'securitySettings',
  'diverts',
  'bridges',
  'queues',
];

export interface ItemChange {
  readonly section: DocumentSection;
  readonly key: string;
  readonly change: 'added' | 'removed' | 'changed';
  /** For a change: the top-level fields whose values differ (address settings: `settings.<field>`). */
  readonly fields: string[];
}

const keyOf = (item: object): string =>
  'match' in item ? String(item.match) : 'name' in item ? String(item.name) : '';

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed: string[] = [];
  for (const field of fields) {
    const [left, right] = [before[field], after[field]];
    if (field === 'settings' && left && right && typeof left === 'object' && typeof right === 'object') {
      changed.push(
        ...changedFields(left as Record<string, unknown>, right as Record<string, unknown>).map(
          (inner) => `settings.${inner}`,
        ),
      );
    } else if (canonical(left) !== canonical(right)) changed.push(field);
  }
  return changed.sort();
}

export function diffDocuments(before: ConfigDocument, after: ConfigDocument): ItemChange[] {
  const changes: ItemChange[] = [];
  for (const section of SECTIONS) {
    const old = new Map<string, Record<string, unknown>>(before[section].map((item) => [keyOf(item), { ...item }]));
    const now = new Map<string, Record<string, unknown>>(after[section].map((item) => [keyOf(item), { ...item }]));
    for (const [key, item] of now) {
      const previous = old.get(key);
      if (!previous) changes.push({ section, key, change: 'added', fields: [] });
      else {
        const fields = changedFields(previous, item);
        if (fields.length > 0) changes.push({ section, key, change: 'changed', fields });
      }
    }
    for (const key of old.keys()) if (!now.has(key)) changes.push({ section, key, change: 'removed', fields: [] });
  }
  return changes;
}

/** How many items a document declares, per section. */
export function countsOf(document: ConfigDocument): Record<DocumentSection, number> {
  return Object.fromEntries(SECTIONS.map((section) => [section, document[section].length])) as Record<
    DocumentSection,
    number
  >;
}
