// What the rr screens, REST and MCP read from rr_event: per-address flows (counts per state and latency percentiles,
// computed by PostgreSQL over the window), one flow as a time series, the correlations that did not complete, and a
// trace by correlation id. Every answer says how it was fed: a sampled address may miss what comes and goes between
// two browses.
import type { z } from 'zod';
import type { PrismaClient } from '@/base/db/database.ts';
import type { ModuleRegistry, SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { pageOf, parseSort } from '@/modules/kernel/core/index.ts';
import type { Prisma } from '@/generated/prisma/client.ts';
import { RR_STATES, type RrState } from './correlator/rr-types.ts';
import { addressNumbers, PERCENTILES, type AddressNumbers } from './address-numbers.ts';
import { expectationOf } from './expectations.ts';
import { capturedAddressesOf } from './feeds/captured-addresses.ts';
import { RR_SETTINGS } from './rr.settings.ts';
import {
  WINDOWS,
  type FLOW_SORT_FIELDS,
  type correlationView,
  type flowInput,
  type flowSummary,
  type listCorrelationsInput,
  type listFlowsInput,
} from './rr.schema.ts';
import { keyHashOf } from './store/correlation-rows.ts';

export interface ReadRuntime {
  readonly prisma: PrismaClient;
  readonly registry: ModuleRegistry;
  readonly settings: SettingsReader;
}

type FlowSummary = z.infer<typeof flowSummary>;

function feedOf(runtime: ReadRuntime, captured: Set<string>, address: string): FlowSummary['feed'] {
  if (captured.has(address)) return { mode: 'capture', notice: null };
  const seconds = runtime.settings.duration(RR_SETTINGS.sampleInterval) / 1000;
  return {
    mode: 'sample',
    notice: `Sampled: the address is browsed every ${String(seconds)} s (no capture tap feeds it). A request or reply that comes and goes between two browses is not seen, so a fast pair may show as TIMED_OUT or RESPONDER_DROPPED, or not at all. Capture the address in the SQL module to see every message.`,
  };
}

function summaryOf(row: AddressNumbers | undefined, address: string): Omit<FlowSummary, 'expectation' | 'feed'> {
  const states = Object.fromEntries(RR_STATES.map((state) => [state, Number(row?.[state] ?? 0)])) as Record<
    RrState,
    number
  >;
  const settled = states.COMPLETED + states.TIMED_OUT + states.ORPHANED + states.RESPONDER_DROPPED;
  const round = (value: number | null | undefined) =>
    value === null || value === undefined ? null : Math.round(value);
  return {
    address,
    requests: row?.requests ?? 0,
    states,
    timedOutShare: settled === 0 ? null : states.TIMED_OUT / settled,
    p50: round(row?.p50),
    p95: round(row?.p95),
    p99: round(row?.p99),
    lastRequestAt: row?.last ? row.last.toISOString() : null,
  };
}

export async function listFlows(runtime: ReadRuntime, input: z.infer<typeof listFlowsInput>) {
  const now = new Date();
  const since = new Date(now.getTime() - WINDOWS[input.window]);
  const [rows, expectations, captured] = await Promise.all([
    addressNumbers(runtime.prisma, input.clusterId, { from: since }),
    runtime.prisma.rrExpectation.findMany({ where: { clusterId: input.clusterId } }),
    capturedAddressesOf(runtime, input.clusterId),
  ]);
  const byAddress = new Map(rows.map((row) => [row.address, row]));
  const declared = new Map(expectations.map((row) => [row.address, expectationOf(row)]));
  const addresses = [...new Set([...byAddress.keys(), ...declared.keys()])];
  const q = input.q?.toLowerCase();
  const flows = addresses
    .filter((address) => !q || address.toLowerCase().includes(q))
    .map((address) => ({
      ...summaryOf(byAddress.get(address), address),
      expectation: declared.get(address) ?? null,
      feed: feedOf(runtime, captured, address),
    }));
  const { field, direction } = parseSort<(typeof FLOW_SORT_FIELDS)[number]>(input.sort);
  const sign = direction === 'asc' ? 1 : -1;
  flows.sort((a, b) => {
    const left = a[field as keyof typeof a] as string | number | null;
    const right = b[field as keyof typeof b] as string | number | null;
    if (left === right) return a.address.localeCompare(b.address);
    if (left === null) return 1;
    if (right === null) return -1;
    return (left < right ? -1 : 1) * sign;
  });
  const start = (input.page - 1) * input.pageSize;
  return {
    ...pageOf(flows.slice(start, start + input.pageSize), flows.length, input.page, input.pageSize),
    asOf: now.toISOString(),
  };
}

export async function readFlow(runtime: ReadRuntime, input: z.infer<typeof flowInput>) {
  const now = new Date();
  const windowMs = WINDOWS[input.window];
  const since = new Date(now.getTime() - windowMs);
  const bucketMs = Math.max(10_000, Math.round(windowMs / 60 / 10_000) * 10_000);
  const [rows, series, expectation, captured] = await Promise.all([
    addressNumbers(runtime.prisma, input.clusterId, { from: since, address: input.address }),
    runtime.prisma.$queryRawUnsafe<
      Array<{ at: Date; requests: number; replies: number; p50: number | null; p95: number | null; p99: number | null }>
    >(
      `SELECT date_bin(make_interval(secs => $4::double precision / 1000), request_at, $2::timestamptz) AS at,
         count(*) FILTER (WHERE state <> 'ORPHANED_REPLY')::int AS requests,
         count(*) FILTER (WHERE state = 'COMPLETED')::int AS replies, ${PERCENTILES}
       FROM rr_event WHERE cluster_id = $1::uuid AND address = $3 AND request_at >= $2
       GROUP BY 1 ORDER BY 1`,
      input.clusterId,
      since,
      input.address,
      bucketMs,
    ),
    runtime.prisma.rrExpectation.findUnique({
      where: { clusterId_address: { clusterId: input.clusterId, address: input.address } },
    }),
    capturedAddressesOf(runtime, input.clusterId),
  ]);
  const byBucket = new Map(series.map((row) => [row.at.getTime(), row]));
  const round = (value: number | null) => (value === null ? null : Math.round(value));
  const buckets = [];
  for (let at = since.getTime(); at <= now.getTime(); at += bucketMs) {
    const row = byBucket.get(at);
    buckets.push({
      at: new Date(at).toISOString(),
      requests: row?.requests ?? 0,
      replies: row?.replies ?? 0,
      p50: round(row?.p50 ?? null),
      p95: round(row?.p95 ?? null),
      p99: round(row?.p99 ?? null),
    });
  }
  return {
    summary: {
      ...summaryOf(rows[0], input.address),
      expectation: expectation ? expectationOf(expectation) : null,
      feed: feedOf(runtime, captured, input.address),
    },
    bucketMs,
    series: buckets,
    asOf: now.toISOString(),
  };
}

type EventRow = Prisma.RrEventGetPayload<object>;

function correlationOf(row: EventRow): z.infer<typeof correlationView> {
  return {
    address: row.address,
    replyAddress: row.replyAddress,
    pattern: row.pattern as 'shared-reply' | 'temporary-queue',
    state: row.state as RrState,
    feed: row.feed as 'capture' | 'sample',
    nodeId: row.nodeId,
    correlationId: row.correlationId,
    messageId: row.messageId,
    brokerMessageId: row.brokerMessageId,
    requestAt: row.requestAt.toISOString(),
    replyAt: row.replyAt?.toISOString() ?? null,
    latencyMs: row.latencyMs,
    clock: row.clock as 'message' | 'observed',
    deadlineAt: row.deadlineAt?.toISOString() ?? null,
    deadlineSource: row.deadlineSource,
    stateAt: row.stateAt.toISOString(),
    note: row.note,
    headers: (row.headers as Record<string, unknown> | null) ?? null,
  };
}

export async function listCorrelations(prisma: PrismaClient, input: z.infer<typeof listCorrelationsInput>) {
  // The address and q both apply. q finds a part of the address or the note, or a whole correlation id (or the
  // message id its replies carry): ids are kept only as a hash of the key, so only an exact id is found.
  const byText = (q: string): Prisma.RrEventWhereInput => ({
    OR: [
      { address: { contains: q, mode: 'insensitive' } },
      { note: { contains: q, mode: 'insensitive' } },
      { keyHash: { in: [...new Set([q, q.replace(/^ID:/, '')])].map((key) => keyHashOf(input.clusterId, key)) } },
    ],
  });
  const where: Prisma.RrEventWhereInput = {
    clusterId: input.clusterId,
    state: input.state ?? { not: 'COMPLETED' },
    AND: [...(input.address === undefined ? [] : [{ address: input.address }]), ...(input.q ? [byText(input.q)] : [])],
  };
  const { field, direction } = parseSort<'stateAt' | 'requestAt' | 'address' | 'state'>(input.sort);
  const [rows, total] = await Promise.all([
    prisma.rrEvent.findMany({
      where,
      orderBy: [{ [field]: direction }, { keyHash: 'asc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    prisma.rrEvent.count({ where }),
  ]);
  return { ...pageOf(rows.map(correlationOf), total, input.page, input.pageSize), asOf: new Date().toISOString() };
}

/** The correlations a correlation id (or a request's message id) names on a cluster. */
export async function traceCorrelation(prisma: PrismaClient, clusterId: string, correlationId: string) {
  const keys = [correlationId, correlationId.replace(/^ID:/, '')].map((key) => keyHashOf(clusterId, key));
  const rows = await prisma.rrEvent.findMany({ where: { clusterId, keyHash: { in: [...new Set(keys)] } } });
  return { items: rows.map(correlationOf) };
}
