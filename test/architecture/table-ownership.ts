// Who may name which table (ADR 8: a module's data only through its entries). Every model of prisma/schema/*.prisma
// belongs to the module its file is named after (`alerting.prisma` → the module folder `alerting`, a suffixed file such
// as `security-identity.prisma` → `security` when no folder has the full name); its table is the model's `@@map`, its
// Prisma delegate the model's name in camel case. A source file touches a table when it reaches the delegate with a
// Prisma method (`prisma.user.findMany`, `tx.auditEvent.create`, on any receiver) or names the table in SQL text — a
// string or template literal where it follows FROM, JOIN, INTO, UPDATE, TABLE or TRUNCATE, quoted or not. The SQL
// views the migrations create are no models: they are declared with their owner in the test (a view is an owner's
// published read shape), and every other module may only read them.
//
// Read with the TypeScript parser (literals and property accesses, no type checker), so comments do not count and a
// table name split over a template's holes is seen piece by piece. Test files (*.test.ts(x)) are not scanned.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A table (or view) and its owning module, as `<layer>/<id>` under src/modules. */
export interface OwnedTable {
  readonly table: string;
  readonly owner: string;
  /** The Prisma delegate (`auditEvent`); none for a view. */
  readonly delegate?: string;
  readonly view?: boolean;
}

/** One file touching a table of another module. */
export interface TableTouch {
  readonly file: string;
  readonly line: number;
  readonly table: string;
  readonly owner: string;
  readonly how: 'prisma' | 'sql' | 'sql-write-to-view';
}

const PRISMA_METHODS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
  'count',
  'aggregate',
  'groupBy',
]);
const SKIPPED_FOLDERS = new Set(['generated', 'node_modules', 'fixtures']);
// The word before a table in SQL: what reads it (FROM, JOIN) and what writes it (INTO, UPDATE, TRUNCATE, TABLE).
const SQL_TABLE =
  /\b(FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE)\s+(?:ONLY\s+|IF\s+(?:NOT\s+)?EXISTS\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/gi;
const SQL_WRITES = new Set(['INTO', 'UPDATE', 'TABLE', 'TRUNCATE']);

/** The module folders (`<layer>/<id>`) under `<root>/src/modules`. */
function moduleFolders(root: string): string[] {
  const modules = path.join(root, 'src/modules');
  return readdirSync(modules, { withFileTypes: true })
    .filter((layer) => layer.isDirectory())
    .flatMap((layer) =>
      readdirSync(path.join(modules, layer.name), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${layer.name}/${entry.name}`),
    );
}

/** The owner of a schema file: the module folder with its name, else with the part before its first dash. */
function ownerOfSchemaFile(file: string, modules: readonly string[]): string | undefined {
  const name = path.basename(file, '.prisma');
  for (const candidate of [name, name.split('-')[0]]) {
    const found = modules.filter((module) => module.split('/')[1] === candidate);
    if (found.length === 1) return found[0];
  }
  return undefined;
}

/** Every model of `<root>/prisma/schema/*.prisma` with its table, delegate and owner; `unowned` lists schema files
 * with models that no module folder claims. */
export function schemaTables(root: string): { tables: OwnedTable[]; unowned: string[] } {
  const modules = moduleFolders(root);
  const dir = path.join(root, 'prisma/schema');
  const tables: OwnedTable[] = [];
  const unowned: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.prisma'))) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    const models = [...source.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
    if (models.length === 0) continue;
    const owner = ownerOfSchemaFile(file, modules);
    if (!owner) {
      unowned.push(file);
      continue;
    }
    for (const [, model = '', body = ''] of models) {
      const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? model;
      tables.push({ table, owner, delegate: model.charAt(0).toLowerCase() + model.slice(1) });
    }
  }
  return { tables, unowned };
}

/** The views the migrations under `<root>/prisma/migrations` create. */
export function migrationViews(root: string): string[] {
  const dir = path.join(root, 'prisma/migrations');
  if (!existsSync(dir)) return [];
  const views = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true }).filter((item) => item.isDirectory())) {
    const file = path.join(dir, entry.name, 'migration.sql');
    if (!existsSync(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/CREATE\s+(?:OR\s+REPLACE\s+)?VIEW\s+"?(\w+)"?/gi))
      views.add(match[1] ?? '');
  }
  return [...views];
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The module (`<layer>/<id>`) a repository-relative file lies in, if any. */
function moduleOfFile(file: string): string | undefined {
  const match = /^src\/modules\/([^/]+\/[^/]+)\//.exec(file);
  return match?.[1];
}

/** Every touch of a table by a file outside its owner, in the files under `roots` (repository-relative). */
export function scanTableTouches(root: string, roots: readonly string[], tables: readonly OwnedTable[]): TableTouch[] {
  const byDelegate = new Map(tables.filter((t) => t.delegate).map((t) => [t.delegate as string, t]));
  const byTable = new Map(tables.map((t) => [t.table, t]));
  const touches: TableTouch[] = [];
  for (const full of roots.flatMap((dir) => sourceFiles(path.join(root, dir)))) {
    const file = path.relative(root, full).split(path.sep).join('/');
    const home = moduleOfFile(file);
    const text = readFileSync(full, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const add = (node: ts.Node, owned: OwnedTable, how: TableTouch['how']) => {
      if (owned.owner === home && how !== 'sql-write-to-view') return;
      if (owned.view && how === 'sql') return; // a published read shape: anyone reads it
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      touches.push({ file, line, table: owned.table, owner: owned.owner, how });
    };
    const sql = (node: ts.Node, literal: string) => {
      for (const match of literal.matchAll(SQL_TABLE)) {
        const owned = byTable.get((match[2] ?? '').toLowerCase());
        if (!owned) continue;
        const writes = SQL_WRITES.has((match[1] ?? '').toUpperCase());
        add(node, owned, owned.view && writes ? 'sql-write-to-view' : 'sql');
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) sql(node, node.text);
      else if (ts.isTemplateExpression(node)) {
        sql(node, node.head.text);
        for (const span of node.templateSpans) sql(span, span.literal.text);
      } else if (
        ts.isPropertyAccessExpression(node) &&
        PRISMA_METHODS.has(node.name.text) &&
        ts.isPropertyAccessExpression(node.expression)
      ) {
        const owned = byDelegate.get(node.expression.name.text);
        if (owned) add(node, owned, 'prisma');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return touches;
}
