// Reads the scalar fields of the Prisma schema files (prisma/schema/*.prisma) and compares them with the tables
// a migrated database really has. Prisma's own diff needs its native engine, which cannot be downloaded here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

interface SchemaColumn {
  readonly field: string;
  readonly column: string;
  readonly prismaType: string;
  readonly required: boolean;
  readonly list: boolean;
}

export interface SchemaModel {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly SchemaColumn[];
}

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Boolean', 'DateTime', 'Json', 'Float', 'Decimal', 'Bytes']);
const POSTGRES_TYPES: Record<string, readonly string[]> = {
  String: ['text', 'uuid', 'character varying', 'character'],
  Int: ['integer', 'smallint'],
  BigInt: ['bigint'],
  Boolean: ['boolean'],
  DateTime: ['timestamp with time zone', 'timestamp without time zone', 'date'],
  Json: ['jsonb', 'json'],
  Float: ['double precision', 'real'],
  Decimal: ['numeric'],
  Bytes: ['bytea'],
};

export function parsePrismaModels(schemaDirectory: string): SchemaModel[] {
  const text = readdirSync(schemaDirectory)
    .filter((name) => name.endsWith('.prisma'))
    .map((name) => readFileSync(path.join(schemaDirectory, name), 'utf8'))
    .join('\n');
  return [...text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)].map(([, name = '', body = '']) => {
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? name;
    const columns = body.split('\n').flatMap((line): SchemaColumn[] => {
      const match = /^\s*(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!match || line.trim().startsWith('//') || line.trim().startsWith('@@')) return [];
      const [, field = '', type = '', list, optional, rest = ''] = match;
      if (!SCALARS.has(type) || rest.includes('@relation')) return [];
      const column = /@map\("([^"]+)"\)/.exec(rest)?.[1] ?? field;
      return [{ field, column, prismaType: type, required: !optional && !list, list: Boolean(list) }];
    });
    return { name, table, columns };
  });
}

interface DatabaseColumn {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  data_type: string;
}

/** Every difference between the models and the database, in words; empty when they agree. */
export async function compareSchemaWithDatabase(models: readonly SchemaModel[], client: pg.Client): Promise<string[]> {
  const columns = (
    await client.query<DatabaseColumn>(
      `SELECT c.table_name, c.column_name, c.is_nullable, c.data_type
         FROM information_schema.columns c
         JOIN pg_class t ON t.relname = c.table_name AND NOT t.relispartition AND t.relkind IN ('r', 'p')
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = c.table_schema
        WHERE c.table_schema = 'public' AND c.table_name <> '_prisma_migrations'
        ORDER BY c.table_name, c.ordinal_position`,
    )
  ).rows;
  const byTable = new Map<string, DatabaseColumn[]>();
  for (const column of columns) byTable.set(column.table_name, [...(byTable.get(column.table_name) ?? []), column]);
  const differences: string[] = [];
  for (const model of models) {
    const actual = byTable.get(model.table);
    if (!actual) {
      differences.push(`model ${model.name}: table ${model.table} does not exist`);
      continue;
    }
    for (const expected of model.columns) {
      const found = actual.find((column) => column.column_name === expected.column);
      if (!found) {
        differences.push(`${model.table}.${expected.column} (${model.name}.${expected.field}) does not exist`);
        continue;
      }
      // A Prisma scalar list has no optional form: a list column may be NOT NULL (with a default) or nullable.
      if (!expected.list && (found.is_nullable === 'NO') !== expected.required) {
        differences.push(
          `${model.table}.${expected.column} is ${found.is_nullable === 'NO' ? 'NOT NULL' : 'nullable'} but the model says ${expected.required ? 'required' : 'optional'}`,
        );
      }
      const compatible = expected.list
        ? found.data_type === 'ARRAY'
        : POSTGRES_TYPES[expected.prismaType]?.includes(found.data_type);
      if (!compatible) {
        differences.push(
          `${model.table}.${expected.column} is ${found.data_type}, which cannot hold a Prisma ${expected.prismaType}`,
        );
      }
    }
    for (const column of actual) {
      if (!model.columns.some((expected) => expected.column === column.column_name)) {
        differences.push(`${model.table}.${column.column_name} exists in the database but not in model ${model.name}`);
      }
    }
  }
  for (const table of byTable.keys()) {
    if (!models.some((model) => model.table === table)) differences.push(`table ${table} has no Prisma model`);
  }
  return differences;
}
