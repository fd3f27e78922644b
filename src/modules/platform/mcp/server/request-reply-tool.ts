// trace_request_reply: the rr module's request-reply tracing behind one `mode` discriminator. mode=address: one
// request address over a window (rr.flow's summary and the buckets that saw traffic, merged down to a few when there
// are many) and its latest correlations that did not complete (rr.correlations); mode=correlation: what became of
// one request, by its correlation id or message id (rr.trace); mode=expect / mode=unexpect: declare, change or remove
// an address's expectation (rr.expectations.put / remove, a dry run by default, audited like the console's). The
// rows' ids and headers are stored masked; they pass the content policy once more here, as message content.
import { governMessages } from '@/modules/platform/governance/index.ts';
import { z } from 'zod';
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick } from './project.ts';
import { gateArguments, nextStep, passGates } from './gates.ts';
import { checkChoice, clusterIdArgument, defineTool, type McpContext, requireArgument } from './tool-kit.ts';

const MODES = ['address', 'correlation', 'expect', 'unexpect'] as const;
/** rr.flow's windows; the procedure checks them again. */
const WINDOWS = ['15m', '1h', '6h', '24h', '7d'] as const;
/** Points of the series an agent gets at most: past this, neighbouring buckets are merged. */
const MAX_POINTS = 20;
const DEFAULT_LIMIT = 10;
const HEADER_CHARS = 400;

const SUMMARY_FIELDS = ['address', 'requests', 'states', 'timedOutShare', 'p50', 'p95', 'p99', 'lastRequestAt'];
const CORRELATION_FIELDS = [
  'state',
  'pattern',
  'correlationId',
  'messageId',
  'brokerMessageId',
  'replyAddress',
  'requestAt',
  'replyAt',
  'latencyMs',
  'clock',
  'deadlineAt',
  'deadlineSource',
  'stateAt',
  'note',
  'feed',
  'nodeId',
];
const PERCENTILES = ['p50', 'p95', 'p99'] as const;

type Row = Record<string, unknown>;

const count = (value: unknown) => (typeof value === 'number' ? value : 0);
const busy = (point: Row) => count(point.requests) > 0 || count(point.replies) > 0;
const point = (row: Row) => pick(row, ['at', 'requests', 'replies', ...PERCENTILES]);

/** The buckets that saw traffic; over MAX_POINTS of them, neighbouring buckets merged (percentiles: the highest). */
function compactSeries(series: Row[], bucketMs: unknown): Row {
  const traffic = series.filter(busy);
  if (traffic.length <= MAX_POINTS) return { bucketMs, points: traffic.map(point) };
  const size = Math.ceil(series.length / MAX_POINTS);
  const merged: Row[] = [];
  for (let start = 0; start < series.length; start += size) {
    const group = series.slice(start, start + size);
    const highest = (field: string) => {
      const values = group.map((row) => row[field]).filter((value): value is number => typeof value === 'number');
      return values.length === 0 ? null : Math.max(...values);
    };
    merged.push({
      at: group[0]?.at,
      requests: group.reduce((sum, row) => sum + count(row.requests), 0),
      replies: group.reduce((sum, row) => sum + count(row.replies), 0),
      ...Object.fromEntries(PERCENTILES.map((field) => [field, highest(field)])),
    });
  }
  return {
    bucketMs: typeof bucketMs === 'number' ? bucketMs * size : bucketMs,
    merged: `${String(size)} buckets per point; p50/p95/p99 are the highest of the merged buckets`,
    points: merged.filter(busy).map(point),
  };
}

function summaryOf(summary: Row): Row {
  const states = Object.fromEntries(Object.entries(asRow(summary.states)).filter(([, value]) => value !== 0));
  const share = summary.timedOutShare;
  const expectation = asRow(summary.expectation);
  const feed = asRow(summary.feed);
  return {
    ...pick({ ...summary, states, timedOutShare: typeof share === 'number' ? Number(share.toFixed(3)) : share }, [
      ...SUMMARY_FIELDS,
    ]),
    ...(Object.keys(expectation).length > 0
      ? { expectation: pick(expectation, ['expectedLatencyMs', 'deadlineMs', 'replyAddress', 'version']) }
      : {}),
    ...pick({ feed: feed.mode, feedNotice: feed.notice }, ['feed', 'feedNotice']),
  };
}

function capped(value: unknown): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > HEADER_CHARS ? `${text.slice(0, HEADER_CHARS)}… (${String(text.length)} chars)` : value;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Correlations as the agent reads them: ids and headers through the policy as message content, values cut. */
async function correlationsOf(context: McpContext, rows: Row[], fields: readonly string[]): Promise<Row[]> {
  if (rows.length === 0) return [];
  const governed = await governMessages(
    context.runtime,
    rows.map((row) => {
      const ids = { messageId: text(row.messageId), correlationId: text(row.correlationId) };
      return {
        address: text(row.address),
        headers: Object.fromEntries(Object.entries(ids).filter(([, value]) => value !== undefined)),
        properties: asRow(row.headers),
        body: { kind: 'empty' as const },
      };
    }),
    { clear: false },
  );
  return rows.map((row, index) => {
    const value = governed[index]?.value;
    const headers = Object.entries(value?.properties ?? {}).map(([key, one]): [string, unknown] => [key, capped(one)]);
    return {
      ...pick({ ...row, messageId: value?.headers.messageId, correlationId: value?.headers.correlationId }, fields),
      ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
    };
  });
}

export const traceRequestReplyTool = defineTool({
  name: 'trace_request_reply',
  module: 'rr',
  description: () =>
    `Request-reply, mode=${MODES.join('|')}: an address's latency, states, unfinished requests; a request by correlationId; expectations.`,
  arguments: {
    clusterId: clusterIdArgument,
    mode: z.string().max(40),
    address: z.string().min(1).max(1000).optional(),
    correlationId: z.string().min(1).max(1000).optional(),
    window: z.string().max(10).optional().describe('Default 1h'),
    limit: z.number().int().min(1).max(100).optional().describe('Default 10'),
    expectedLatencyMs: z.number().int().optional(),
    deadlineMs: z.number().int().optional(),
    replyAddress: z.string().min(1).max(1000).optional(),
    dryRun: gateArguments.dryRun,
  },
  run: async (args, context) => {
    const mode = checkChoice('mode', args.mode, MODES);
    if (mode === 'expect' || mode === 'unexpect') {
      const address = requireArgument(args.address, `mode=${mode} needs address (the request address).`);
      const { dryRun } = passGates(args, { kind: 'expectation', name: address, destructive: false });
      const answer =
        mode === 'expect'
          ? await callProcedure(context, 'rr.expectations.put', {
              clusterId: args.clusterId,
              address,
              replyAddress: args.replyAddress ?? null,
              expectedLatencyMs: requireArgument(args.expectedLatencyMs, 'mode=expect needs expectedLatencyMs.'),
              deadlineMs: requireArgument(args.deadlineMs, 'mode=expect needs deadlineMs.'),
              dryRun,
            })
          : await callProcedure(context, 'rr.expectations.remove', { clusterId: args.clusterId, address, dryRun });
      return {
        mode,
        ...pick(asRow(answer), ['address', 'version', 'dryRun', 'next']),
        ...(dryRun ? { then: nextStep({ kind: 'expectation', name: address, destructive: false }) } : {}),
      };
    }
    if (mode === 'correlation') {
      const correlationId = requireArgument(
        args.correlationId,
        'mode=correlation needs correlationId (the request’s correlation id or message id).',
      );
      const answer = asRow(await callProcedure(context, 'rr.trace', { clusterId: args.clusterId, correlationId }));
      const items = await correlationsOf(context, asRows(answer.items), ['address', ...CORRELATION_FIELDS]);
      return {
        mode,
        items,
        ...(items.length === 0
          ? {
              note:
                'No request under that id on this cluster: not seen (a sampled address can miss a fast pair; ' +
                'mode=address shows how an address is fed) or older than events.retention.',
            }
          : {}),
      };
    }
    const address = requireArgument(args.address, 'mode=address needs address (the request address).');
    const window = checkChoice('window', args.window ?? '1h', WINDOWS);
    const limit = args.limit ?? DEFAULT_LIMIT;
    // One after the other: a refusal (no such cluster, a permission missing) is met, and audited, once.
    const flow = asRow(await callProcedure(context, 'rr.flow', { clusterId: args.clusterId, address, window }));
    const open = asRow(
      await callProcedure(context, 'rr.correlations', { clusterId: args.clusterId, address, pageSize: limit }),
    );
    const rows = asRows(open.items);
    const total = typeof open.total === 'number' ? open.total : rows.length;
    return {
      mode,
      window,
      summary: summaryOf(asRow(flow.summary)),
      series: compactSeries(asRows(flow.series), flow.bucketMs),
      unfinished: {
        total,
        items: await correlationsOf(context, rows, CORRELATION_FIELDS),
        ...(total > rows.length ? { more: `${String(total - rows.length)} more; raise limit (at most 100).` } : {}),
      },
    };
  },
});
