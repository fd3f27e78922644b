// query_messages: the SQL console for agents, over the sql module's query procedure (the caller's permissions, no
// clear view: an agent reads the masked form). Rows pass the content policy once more at this exit, as text.
import { governRecords } from '@/modules/platform/governance/index.ts';
import { z } from 'zod';
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick } from './project.ts';
import { checkChoice, clusterIdArgument, defineTool } from './tool-kit.ts';

/** Rows an agent gets at most: the listing and the answer both count against the model's context. */
const MAX_ROWS = 50;
const CELL_CHARS = 400;

function cell(value: unknown): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS)}… (${String(text.length)} chars)` : text;
}

export const queryMessagesTool = defineTool({
  name: 'query_messages',
  module: 'sql',
  description: () =>
    'SQL SELECT over messages: source index (captured/sampled history) or live (brokers now). FROM "orders.*"; docs/sql.md.',
  arguments: {
    clusterId: clusterIdArgument,
    sql: z.string().min(1).max(10_000),
    source: z.string().optional().describe('index (default) or live'),
  },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId, sql, source }, context) => {
    const chosen = checkChoice('source', source ?? 'index', ['index', 'live'] as const);
    const answer = asRow(await callProcedure(context, 'sql.query', { clusterId, sql, source: chosen }));
    const rows = asRows(answer.rows).slice(0, MAX_ROWS);
    const governed = await governRecords(
      context.runtime,
      rows.map((row) => ({ values: row })),
      { clear: false },
    );
    return {
      ...pick(answer, ['source', 'columns', 'scanned', 'bounds', 'notices', 'selector']),
      rows: governed.map((one) =>
        Object.fromEntries(Object.entries(one.value).map(([key, value]) => [key, cell(value)])),
      ),
      ...(asRows(answer.rows).length > MAX_ROWS
        ? { more: `${String(asRows(answer.rows).length - MAX_ROWS)} more rows; add a LIMIT or narrow the WHERE.` }
        : {}),
    };
  },
});
