// Every list of the console uses the one table (src/ui/table/data-table.tsx): search, sort, paging and the empty
// state that tells "nothing here yet" from "nothing matches" come with it. A screen that imports Mantine's Table
// builds a list without them; only the table itself and key-value panels (one record's fields, not a list) may.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Files allowed to use Mantine's Table, each with the reason. */
const ALLOWED: Record<string, string> = {
  'src/ui/table/data-table.tsx': 'the one table',
  'src/modules/kernel/security/ui/account.screen.tsx': 'the profile: one record’s fields (variant="vertical")',
  'src/modules/feature/events/ui/event-drawer.tsx': 'one event’s fields and properties (variant="vertical")',
};

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : tsxFiles(full);
    return entry.name.endsWith('.tsx') ? [full] : [];
  });
}

/** Whether the file takes `Table` from Mantine (named import, any position). */
function importsMantineTable(source: string): boolean {
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)].some((match) =>
    (match[1] ?? '').split(',').some((name) => name.trim() === 'Table'),
  );
}

describe('every list uses the shared table', () => {
  it('recognises a Mantine Table import', () => {
    expect(importsMantineTable("import { Badge, Table, Text } from '@mantine/core';")).toBe(true);
    expect(importsMantineTable("import { Badge, TableOfContents } from '@mantine/core';")).toBe(false);
  });

  it('has no screen that builds a list with Mantine’s Table', () => {
    const offenders = tsxFiles(path.join(ROOT, 'src'))
      .map((file) => path.relative(ROOT, file))
      .filter((file) => !(file in ALLOWED) && importsMantineTable(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
