// Owners' data only through owners' entries (ADR 8): every table of prisma/schema/*.prisma belongs to the module its
// file is named after, and no other module's file — nor a file outside the modules — names it in SQL or reaches its
// Prisma delegate. Another module asks the owner's public entry. The SQL views the migrations create are the owners'
// published read shapes: each is declared below with its owner; other modules may read it, no one but the owner may
// write it, and a view no one declared fails the check. How a touch is recognised: table-ownership.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationViews, schemaTables, scanTableTouches, type OwnedTable, type TableTouch } from './table-ownership.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURE = path.join(import.meta.dirname, 'fixtures/tables');
/** What is scanned: the product's sources, its scripts and the benchmarks (test files are not). */
const SCANNED = ['src', 'scripts', 'bench'];

/** The views of the migrations, each with its owner and where the owner publishes it. */
const VIEWS: Record<string, { owner: string; published: string }> = {
  cluster_logical_node: {
    owner: 'platform/clusters',
    published: 'ADR 8 and docs/clusters.md: the logical node of each node, read by the queue grid and the scrape',
  },
};

/** Files (or folders, ending in `/`) allowed to touch others' tables, each with the reason. Keep it short. */
const EXCEPTIONS: Record<string, string> = {
  'bench/':
    'benchmarks seed fleets of rows (clusters, nodes, snapshots, rules) in bulk before they time an owner’s entry, ' +
    'as test support does; they run nowhere but on a developer’s machine',
};

const excepted = (touch: TableTouch) =>
  Object.keys(EXCEPTIONS).some((entry) => (entry.endsWith('/') ? touch.file.startsWith(entry) : touch.file === entry));
const describeTouch = (touch: TableTouch) =>
  `${touch.file}:${String(touch.line)} ${touch.how === 'prisma' ? 'reaches the delegate of' : 'names'} ` +
  `${touch.table}${touch.how === 'sql-write-to-view' ? ' (writes a view)' : ''}, owned by ${touch.owner}`;

function ownedTables(root: string, views: Record<string, { owner: string }>): OwnedTable[] {
  const { tables, unowned } = schemaTables(root);
  expect(unowned, 'schema files with models that no module folder is named after').toEqual([]);
  return [...tables, ...Object.entries(views).map(([table, { owner }]) => ({ table, owner, view: true }))];
}

describe('table ownership', () => {
  it('finds every touch of another module’s table, and only those (fixture)', () => {
    const tables = ownedTables(FIXTURE, { ledger_total: { owner: 'kernel/ledger' } });
    expect(tables.find((table) => table.table === 'ledger_entry')).toEqual({
      table: 'ledger_entry',
      owner: 'kernel/ledger',
      delegate: 'ledgerEntry',
    });
    const touches = scanTableTouches(FIXTURE, ['src'], tables).map(describeTouch);
    expect(touches.sort()).toEqual([
      'src/modules/feature/report/server/report.ts:4 names ledger_entry, owned by kernel/ledger',
      'src/modules/feature/report/server/report.ts:5 reaches the delegate of ledger_entry, owned by kernel/ledger',
      'src/modules/feature/report/server/report.ts:7 names ledger_total (writes a view), owned by kernel/ledger',
      'src/server/runtime.ts:2 names ledger_entry, owned by kernel/ledger',
    ]);
  });

  it('maps every table of the schema to a module, and every view of the migrations is declared with its owner', () => {
    const tables = ownedTables(ROOT, VIEWS);
    expect(tables.filter((table) => !table.view).length).toBeGreaterThan(35);
    expect(migrationViews(ROOT).sort(), 'a view of the migrations is not declared in VIEWS').toEqual(
      Object.keys(VIEWS).sort(),
    );
    // The migrations' views of the fixture are found too: a view added without a declaration fails the line above.
    expect(migrationViews(FIXTURE)).toEqual(['ledger_total']);
  });

  it('has no file that touches a table outside its owner, but the explicit exceptions', () => {
    const touches = scanTableTouches(ROOT, SCANNED, ownedTables(ROOT, VIEWS));
    expect(touches.filter((touch) => !excepted(touch)).map(describeTouch)).toEqual([]);
    // An exception that excuses nothing any more goes.
    const unused = Object.keys(EXCEPTIONS).filter(
      (entry) => !touches.some((touch) => excepted(touch) && touch.file.startsWith(entry)),
    );
    expect(unused, 'exceptions that excuse no touch: remove them').toEqual([]);
  }, 30_000); // reads every source file: seconds when the unit project shares two cores with broker suites
});
