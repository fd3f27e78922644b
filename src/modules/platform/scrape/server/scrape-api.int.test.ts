// The scrape's read API over REST and its health indicator, on rows as the worker writes them: per node per tier
// the last sweep with staleness judged from the interval stored with it, queue rows flagged with their node's
// staleness, and one 404 for a cluster that does not exist.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthReport } from '@/server/http/health.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';

let secured: SecuredRuntime;
let runtime: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let headers: AuthHeaders;
const clusterId = randomUUID();
const [fresh, stale] = [randomUUID(), randomUUID()];

async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await rest(new Request(`http://127.0.0.1/api/v1${path}`, { headers }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ runtime, rest } = secured);
  headers = await signIn(rest, 'http://127.0.0.1');
  // Taken once the runtime is up, so a slow start cannot age the fresh node's sweeps past two intervals.
  const now = Date.now();
  const { prisma } = runtime;
  await insertClusterRow(prisma, { id: clusterId, name: 'orders' });
  for (const [id, port, lastOk] of [
    [fresh, 8161, now - 1_000],
    [stale, 8162, now - 60_000],
  ] as const) {
    await prisma.clusterNode.create({
      data: {
        id,
        clusterId,
        managementUrl: `http://127.0.0.1:${port}/console/jolokia`,
        lastSuccessAt: new Date(lastOk),
        ...(id === stale ? { lastFailureAt: new Date(now - 500), lastError: 'unreachable: connection refused' } : {}),
      },
    });
    for (const tier of ['A', 'B', 'C']) {
      await prisma.scrapeSweep.create({
        data: {
          nodeId: id,
          tier,
          clusterId,
          instanceId: 'one',
          lastStartedAt: new Date(lastOk - 100),
          lastCompletedAt: new Date(lastOk),
          intervalMs: 5_000,
          rowsPersisted: 1,
          limiterWaitMs: 3,
        },
      });
    }
    await prisma.queueSnapshot.create({
      data: {
        clusterId,
        nodeId: id,
        address: 'orders',
        queueName: 'orders',
        routingType: 'ANYCAST',
        messageCount: 5n,
        consumerCount: 1,
        deliveringCount: 0n,
        messagesAdded: 9n,
        messagesAcked: 4n,
        messagesExpired: 0n,
        scrapedAt: new Date(lastOk - 100),
        seenIn: 'B',
      },
    });
  }
}, 60_000);

afterAll(async () => {
  await secured.close();
});

describe('scrape read API', () => {
  it('gives per node per tier the last sweep, stale after two intervals', async () => {
    const { status, body } = await get(`/scrape/clusters/${clusterId}/sweeps`);
    expect(status).toBe(200);
    const items = body.items as Array<{ nodeId: string; tier: string; stale: boolean; limiterWaitMs: number }>;
    expect(items).toHaveLength(6);
    expect(items.filter((item) => item.nodeId === fresh).every((item) => !item.stale)).toBe(true);
    expect(items.filter((item) => item.nodeId === stale).every((item) => item.stale)).toBe(true);
    expect(items[0]?.limiterWaitMs).toBe(3);
  });

  it('lists queue rows per node with their node’s staleness', async () => {
    const { status, body } = await get(`/scrape/clusters/${clusterId}/queues?sort=-messageCount&pageSize=10`);
    expect(status).toBe(200);
    expect(body.total).toBe(2);
    const items = body.items as Array<{ nodeId: string; stale: boolean; messageCount: number }>;
    expect(Object.fromEntries(items.map((item) => [item.nodeId, item.stale]))).toEqual({
      [fresh]: false,
      [stale]: true,
    });
    expect(items[0]?.messageCount).toBe(5);
  });

  it('answers 404 for a cluster that does not exist', async () => {
    expect((await get(`/scrape/clusters/${randomUUID()}/sweeps`)).status).toBe(404);
  });

  it('reports the worker’s per-node numbers in the web process’s health', async () => {
    const report = await healthReport(runtime);
    const scrape = report.components.scrape as { status: string; details: { degraded: string[]; nodes: unknown[] } };
    expect(scrape.status).toBe('DEGRADED');
    expect(scrape.details.degraded).toEqual(['http://127.0.0.1:8162/console/jolokia']);
    expect(scrape.details.nodes).toContainEqual(
      expect.objectContaining({
        node: 'http://127.0.0.1:8162/console/jolokia',
        lastError: 'unreachable: connection refused',
        staleTiers: ['A', 'B', 'C'],
        scrapedBy: 'one',
        limiterWaitMs: 3,
      }),
    );
  });
});
