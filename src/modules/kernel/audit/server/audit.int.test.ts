// The audit trail against a real PostgreSQL: `audited` wraps work and its row in one transaction, and a failure
// still leaves a FAILED row; `openAudit` commits its PENDING row before the work (what a broker command needs),
// shows progress on it and finishes it once; `listAuditEvents` filters, searches, sorts and pages in the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { listAuditEvents } from './audit-query.ts';
import { listAuditInput } from './audit.schema.ts';
import { audited, openAudit } from './audit.service.ts';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  // Two connections at least: one for the transaction, one to look at the table from outside it.
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'audit-test' });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const requestNamed = (requestId: string): RequestContext => ({
  requestId,
  actor: { name: 'alice', userId: 'user-alice' },
  sourceIp: '198.51.100.7',
});

const cluster = { id: '11111111-1111-4111-8111-111111111111', name: 'prod-east' };

describe('audited', () => {
  it('opens a PENDING row in the work’s transaction and completes it as SUCCEEDED', async () => {
    const request = requestNamed('req-audit-ok');
    let seenInside: { outcome: string; finishedAt: Date | null } | null = null;
    let seenOutside: unknown = 'not looked';

    const result = await audited(
      db.prisma,
      request,
      { action: 'queue.purge', target: 'orders', parameters: { max: 10 }, cluster },
      async (tx) => {
        await tx.flotillaSetting.create({ data: { key: 'audit-test.ok', value: 1, scope: 'RUNTIME' } });
        seenInside = await tx.auditEvent.findFirst({ where: { requestId: request.requestId } });
        // Nothing is committed yet: another connection sees no row.
        seenOutside = await db.prisma.auditEvent.findFirst({ where: { requestId: request.requestId } });
        return { result: 'purged', completion: { nodeDetail: { node: 'a', removed: 10 } } };
      },
    );

    expect(result).toBe('purged');
    expect(seenInside).toMatchObject({ outcome: 'PENDING', finishedAt: null });
    expect(seenOutside).toBeNull();

    const rows = await db.prisma.auditEvent.findMany({ where: { requestId: request.requestId } });
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      outcome: 'SUCCEEDED',
      actor: 'alice',
      userId: 'user-alice',
      sourceIp: '198.51.100.7',
      action: 'queue.purge',
      target: 'orders',
      parameters: { max: 10 },
      clusterId: cluster.id,
      clusterName: 'prod-east',
      dryRun: false,
      nodeDetail: { node: 'a', removed: 10 },
      error: null,
    });
    expect(row?.finishedAt?.getTime()).toBeGreaterThanOrEqual(row?.startedAt.getTime() ?? Infinity);
    // The work committed together with its audit row.
    expect(await db.prisma.flotillaSetting.findUnique({ where: { key: 'audit-test.ok' } })).toMatchObject({ value: 1 });
  });

  it('rolls the work back, records a FAILED row with the error and rethrows', async () => {
    const request = requestNamed('req-audit-fail');
    const failure = new Error('broker refused the purge');
    let pendingId: string | undefined;

    const outcome = audited(db.prisma, request, { action: 'queue.purge', target: 'payments', cluster }, async (tx) => {
      await tx.flotillaSetting.create({ data: { key: 'audit-test.failed', value: 1, scope: 'RUNTIME' } });
      pendingId = (await tx.auditEvent.findFirst({ where: { requestId: request.requestId } }))?.id;
      throw failure;
    });

    // The caller gets the work's own error, not a wrapper.
    await expect(outcome).rejects.toBe(failure);
    expect(await db.prisma.flotillaSetting.findUnique({ where: { key: 'audit-test.failed' } })).toBeNull();

    const rows = await db.prisma.auditEvent.findMany({ where: { requestId: request.requestId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: pendingId,
      outcome: 'FAILED',
      error: 'broker refused the purge',
      action: 'queue.purge',
      target: 'payments',
      actor: 'alice',
      clusterId: cluster.id,
      clusterName: 'prod-east',
    });
    expect(rows[0]?.finishedAt).toBeInstanceOf(Date);
  });
});

describe('listAuditEvents', () => {
  // Fixed ids, so rows that tie on the sort field have a known order (the id breaks ties).
  const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  const east = cluster;
  const west = { id: '22222222-2222-4222-8222-222222222222', name: 'Staging-West' };
  const at = (day: number) => new Date(Date.UTC(2026, 0, day, 10));
  const fixtures = [
    {
      n: 1,
      actor: 'alice',
      action: 'setting.update',
      target: 'audit.retention',
      cluster: null,
      outcome: 'SUCCEEDED',
      dryRun: false,
    },
    { n: 2, actor: 'bob', action: 'queue.purge', target: 'orders', cluster: east, outcome: 'FAILED', dryRun: false },
    {
      n: 3,
      actor: 'alice',
      action: 'queue.purge',
      target: 'payments',
      cluster: east,
      outcome: 'SUCCEEDED',
      dryRun: true,
    },
    { n: 4, actor: 'carol', action: 'message.move', target: 'DLQ', cluster: west, outcome: 'PARTIAL', dryRun: false },
    {
      n: 5,
      actor: 'bob [token: ci]',
      action: 'address.create',
      target: 'events',
      cluster: west,
      outcome: 'REFUSED',
      dryRun: false,
    },
    { n: 6, actor: 'system', action: 'job.run', target: null, cluster: null, outcome: 'SUCCEEDED', dryRun: false },
  ] as const;

  beforeAll(async () => {
    // Only the fixtures: rows the tests above wrote would make every count ambiguous.
    await db.prisma.auditEvent.deleteMany();
    await db.prisma.auditEvent.createMany({
      data: fixtures.map((fixture) => ({
        id: id(fixture.n),
        actor: fixture.actor,
        requestId: `req-fixture-${fixture.n}`,
        action: fixture.action,
        target: fixture.target,
        dryRun: fixture.dryRun,
        clusterId: fixture.cluster?.id ?? null,
        clusterName: fixture.cluster?.name ?? null,
        outcome: fixture.outcome,
        startedAt: at(fixture.n),
        finishedAt: new Date(at(fixture.n).getTime() + 1_000),
      })),
    });
  });

  /** Runs a query through the endpoint's own input schema (so defaults apply) and answers the row numbers. */
  async function list(query: Record<string, unknown>) {
    const page = await listAuditEvents(db.prisma, listAuditInput.parse(query));
    return { ...page, numbers: page.items.map((item) => fixtures.find((fixture) => id(fixture.n) === item.id)?.n) };
  }

  it('lists newest first by default, with ISO timestamps', async () => {
    const page = await list({});
    expect(page.numbers).toEqual([6, 5, 4, 3, 2, 1]);
    expect(page).toMatchObject({ total: 6, page: 1, pageSize: 50 });
    expect(page.items[0]).toMatchObject({
      startedAt: '2026-01-06T10:00:00.000Z',
      finishedAt: '2026-01-06T10:00:01.000Z',
    });
  });

  it('filters by exact actor, action, cluster and outcome', async () => {
    expect((await list({ actor: 'alice' })).numbers).toEqual([3, 1]);
    expect((await list({ actor: 'ali' })).numbers).toEqual([]);
    expect((await list({ action: 'queue.purge' })).numbers).toEqual([3, 2]);
    expect((await list({ clusterId: west.id })).numbers).toEqual([5, 4]);
    expect((await list({ outcome: 'FAILED' })).numbers).toEqual([2]);
    expect((await list({ actor: 'alice', action: 'queue.purge' })).numbers).toEqual([3]);
  });

  it('filters dry runs and real runs', async () => {
    expect((await list({ dryRun: 'true' })).numbers).toEqual([3]);
    expect((await list({ dryRun: 'false' })).numbers).toEqual([6, 5, 4, 2, 1]);
  });

  it('filters by time: from inclusive, to exclusive', async () => {
    const page = await list({ from: '2026-01-02T10:00:00Z', to: '2026-01-04T10:00:00Z' });
    expect(page.numbers).toEqual([3, 2]);
    expect(page.total).toBe(2);
    expect((await list({ from: '2026-01-05T11:00:00+01:00' })).numbers).toEqual([6, 5]);
  });

  it('searches actor, action, target and cluster name case-insensitively', async () => {
    expect((await list({ q: 'BOB' })).numbers).toEqual([5, 2]);
    expect((await list({ q: 'Purge' })).numbers).toEqual([3, 2]);
    expect((await list({ q: 'dlq' })).numbers).toEqual([4]);
    expect((await list({ q: 'staging' })).numbers).toEqual([5, 4]);
    expect((await list({ q: 'req-fixture-1' })).numbers).toEqual([1]);
    expect((await list({ q: 'PROD-EAST', outcome: 'SUCCEEDED' })).numbers).toEqual([3]);
    expect((await list({ q: 'nothing matches this' })).total).toBe(0);
  });

  it('sorts by the requested field in either direction', async () => {
    expect((await list({ sort: 'actor' })).numbers).toEqual([1, 3, 2, 5, 4, 6]);
    expect((await list({ sort: '-actor' })).numbers).toEqual([6, 4, 5, 2, 3, 1]);
    expect((await list({ sort: 'startedAt' })).numbers).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await list({ sort: '-startedAt' })).numbers).toEqual([6, 5, 4, 3, 2, 1]);
    expect((await list({ sort: 'outcome', action: 'queue.purge' })).numbers).toEqual([2, 3]);
  });

  it('pages with the total of every matching row', async () => {
    expect(await list({ pageSize: 2, page: 2 })).toMatchObject({ numbers: [4, 3], total: 6, page: 2, pageSize: 2 });
    expect(await list({ pageSize: 4, page: 2 })).toMatchObject({ numbers: [2, 1], total: 6 });
    expect(await list({ pageSize: 2, page: 4 })).toMatchObject({ numbers: [], total: 6 });
    expect(await list({ actor: 'alice', pageSize: 1, page: 2 })).toMatchObject({ numbers: [1], total: 2 });
  });
});

describe('openAudit', () => {
  it('commits the PENDING row before the work, shows progress on it, and finishes it once', async () => {
    const request = requestNamed('req-open-audit');
    const audit = await openAudit(db.prisma, request, { action: 'queue.purge', target: 'orders', cluster });
    // Committed: another connection sees it before any work is done.
    const pending = await db.query<{ outcome: string }>('SELECT outcome FROM audit_event WHERE id = $1', [audit.id]);
    expect(pending).toEqual([{ outcome: 'PENDING' }]);

    await audit.progress({ nodes: [{ nodeName: 'a', outcome: 'APPLIED' }] });
    const during = await db.prisma.auditEvent.findUniqueOrThrow({ where: { id: audit.id } });
    expect(during).toMatchObject({
      outcome: 'PENDING',
      nodeDetail: { nodes: [{ nodeName: 'a', outcome: 'APPLIED' }] },
    });

    await audit.finish({ outcome: 'PARTIAL', nodeDetail: { nodes: ['a done', 'b failed'] }, error: 'b: unreachable' });
    // Progress arriving after the end changes nothing.
    await audit.progress({ nodes: ['late'] });
    const finished = await db.prisma.auditEvent.findUniqueOrThrow({ where: { id: audit.id } });
    expect(finished).toMatchObject({
      outcome: 'PARTIAL',
      nodeDetail: { nodes: ['a done', 'b failed'] },
      error: 'b: unreachable',
    });
    expect(finished.finishedAt).not.toBeNull();
  });
});
