// The fleet, triage and fleet-wide queue search over REST on a real PostgreSQL, on rows as the scrape and the
// verdict refresher leave them: health in words from the nodes and the capability ledger, backlog and dead-letter
// depth from the queue totals, the worst verdicts ranked by severity then backlog growth, and a viewer scoped to one
// environment seeing only its clusters everywhere (a cluster it may not see is simply absent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';

let secured: SecuredRuntime;
let admin: AuthHeaders;
let viewer: AuthHeaders;
const clusters = { payments: '', billing: '' };

async function call(headers: AuthHeaders, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await secured.rest(
    new Request(`http://127.0.0.1/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { ...headers, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

interface FleetAnswer {
  clusters: Array<{
    name: string;
    health: string;
    problems: string[];
    queues: { count: number; backlog: number; deadLetterDepth: number } | null;
    verdicts: { worst: string | null; counts: Record<string, number>; evaluatedAt: string | null } | null;
  }>;
  totals: { clusters: number; down: number; degraded: number; backlog: number; needingAttention: number };
}

async function storeVerdict(clusterId: string, queueName: string, verdict: string, severity: number, change: number) {
  await secured.runtime.db.query(
    `INSERT INTO queue_verdict (cluster_id, address, queue_name, routing_type, verdict, severity, depth, depth_change,
                                in_rate, out_rate, consumers, delivering, evaluated_at)
     VALUES ($1, $2, $2, 'ANYCAST', $3, $4, 10, $5, 1, 0.5, 1, 0, now())`,
    [clusterId, queueName, verdict, severity, change],
  );
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  admin = await signIn(secured.rest, 'http://127.0.0.1');
  const { prisma } = secured.runtime;
  const prod = (await call(admin, '/environments', { method: 'POST', body: { name: 'prod' } })).json.id as string;
  clusters.payments = await insertClusterRow(prisma, { name: 'payments', environmentId: prod });
  clusters.billing = await insertClusterRow(prisma, { name: 'billing' });
  const fresh = new Date();
  const payments = await insertScrapedNode(prisma, {
    clusterId: clusters.payments,
    brokerNodeId: 'p1',
    brokerName: 'pay-1',
    serving: true,
    sweptAt: fresh,
  });
  // The brokers' address settings name DLQ as payments' dead-letter address (the scrape reads them after tier C).
  await secured.runtime.db.query(
    `INSERT INTO scrape_dead_letter_address (cluster_id, address, kind) VALUES ($1, 'DLQ', 'dead-letter')`,
    [clusters.payments],
  );
  await insertScrapedQueues(prisma, { clusterId: clusters.payments, nodeId: payments, scrapedAt: fresh }, [
    { queueName: 'orders', messageCount: 120, consumerCount: 1 },
    { queueName: 'orders.retry', messageCount: 30 },
    { queueName: 'DLQ', messageCount: 7 },
    { queueName: '$.artemis.internal.sf.pay.x', messageCount: 500, internal: true },
  ]);
  // billing: one node failing since its last success, and the management read capability lost.
  const billing = await insertScrapedNode(prisma, {
    clusterId: clusters.billing,
    brokerNodeId: 'b1',
    brokerName: 'bill-1',
    serving: true,
    sweptAt: fresh,
  });
  await prisma.clusterNode.update({
    where: { id: billing },
    data: { lastFailureAt: new Date(fresh.getTime() + 1_000), lastError: 'unreachable' },
  });
  await insertScrapedNode(prisma, {
    clusterId: clusters.billing,
    brokerNodeId: 'b2',
    brokerName: 'bill-2',
    serving: true,
    sweptAt: fresh,
  });
  await insertScrapedQueues(prisma, { clusterId: clusters.billing, nodeId: billing, scrapedAt: fresh }, [
    { queueName: 'orders.invoiced', messageCount: 5 },
  ]);
  await storeVerdict(clusters.payments, 'orders', 'FALLING_BEHIND', 4, 40);
  await storeVerdict(clusters.payments, 'orders.retry', 'NO_CONSUMERS', 3, 2);
  await storeVerdict(clusters.payments, 'DLQ', 'HEALTHY', 8, 0);
  await storeVerdict(clusters.billing, 'orders.invoiced', 'STALLED', 1, 0);
  await storeVerdict(clusters.billing, 'bills', 'FALLING_BEHIND', 4, 90);

  const user = await call(admin, '/users', {
    method: 'POST',
    body: { username: 'vera', password: 'a long password for the viewer', mustChangePassword: false },
  });
  expect(user.status, JSON.stringify(user.json)).toBe(200);
  const role = await prisma.role.findFirstOrThrow({ where: { name: 'viewer' } });
  const grant = await call(admin, '/grants', {
    method: 'POST',
    body: { userId: (user.json.user as { id: string }).id, roleId: role.id, scope: { kind: 'ENVIRONMENT', id: prod } },
  });
  expect(grant.status).toBe(200);
  viewer = await signIn(secured.rest, 'http://127.0.0.1', {
    username: 'vera',
    password: 'a long password for the viewer',
  });
});

afterAll(async () => {
  await secured.close();
});

describe('the fleet', () => {
  it('gives every cluster its health in words, backlog, dead-letter depth and worst verdict', async () => {
    const { status, json } = await call(admin, '/fleet');
    expect(status).toBe(200);
    const fleet = json as unknown as FleetAnswer;
    const byName = new Map(fleet.clusters.map((cluster) => [cluster.name, cluster]));
    expect(byName.get('payments')).toMatchObject({
      health: 'UP',
      problems: [],
      // The internal store-and-forward queue is neither counted nor part of the backlog.
      queues: { count: 3, backlog: 150, deadLetterDepth: 7 },
      verdicts: { worst: 'NO_CONSUMERS', counts: { FALLING_BEHIND: 1, NO_CONSUMERS: 1, HEALTHY: 1 } },
    });
    expect(byName.get('billing')).toMatchObject({
      health: 'DEGRADED',
      problems: ['1 of 2 nodes fail'],
      verdicts: { worst: 'STALLED' },
    });
    expect(fleet.totals).toMatchObject({ clusters: 2, down: 0, degraded: 1, backlog: 155, needingAttention: 4 });
  });

  it('ranks the worst queues across clusters by verdict, then by how much the backlog grew', async () => {
    const { json } = await call(admin, '/triage');
    const rows = (json.items as Array<{ clusterName: string; queueName: string; verdict: string }>).map((row) => [
      row.clusterName,
      row.queueName,
      row.verdict,
    ]);
    expect(rows).toEqual([
      ['billing', 'orders.invoiced', 'STALLED'],
      ['payments', 'orders.retry', 'NO_CONSUMERS'],
      ['billing', 'bills', 'FALLING_BEHIND'], // grew by 90
      ['payments', 'orders', 'FALLING_BEHIND'], // grew by 40
    ]);
    const stalled = await call(admin, '/triage?verdict=STALLED');
    expect(stalled.json.total).toBe(1);
    const bad = await call(admin, '/triage?verdict=SLEEPY');
    expect([bad.status, bad.json.type]).toEqual([400, 'validation-failed']);
    expect(String(bad.json.detail)).toContain('SLEEPY');
  });

  it('finds queues across clusters by name, exact names first, internal ones left out', async () => {
    const { json } = await call(admin, '/queues?q=orders');
    const found = (json.items as Array<{ clusterName: string; queueName: string }>).map(
      (row) => `${row.clusterName}/${row.queueName}`,
    );
    expect(found).toEqual(['payments/orders', 'billing/orders.invoiced', 'payments/orders.retry']);
    expect((await call(admin, '/queues?q=artemis')).json.total).toBe(0);
    const empty = await call(admin, '/queues?q=');
    expect(empty.status).toBe(400);
  });

  it('sorts the fleet, triage and search lists by a field, either way, and refuses an unknown field', async () => {
    const fleetBy = async (sort: string) =>
      ((await call(admin, `/fleet?sort=${sort}`)).json as unknown as FleetAnswer).clusters.map((item) => item.name);
    expect(await fleetBy('name')).toEqual(['billing', 'payments']);
    expect(await fleetBy('-name')).toEqual(['payments', 'billing']);
    expect(await fleetBy('health')).toEqual(['billing', 'payments']); // DEGRADED before UP
    expect(await fleetBy('-backlog')).toEqual(['payments', 'billing']);

    const triageBy = async (sort: string) =>
      ((await call(admin, `/triage?sort=${sort}`)).json.items as Array<{ queueName: string }>).map(
        (row) => row.queueName,
      );
    expect(await triageBy('-depthChange')).toEqual(['bills', 'orders', 'orders.retry', 'orders.invoiced']);
    expect(await triageBy('queueName')).toEqual(['bills', 'orders', 'orders.invoiced', 'orders.retry']);
    expect(await triageBy('-severity')).toEqual(['orders', 'bills', 'orders.retry', 'orders.invoiced']);

    const searchBy = async (sort: string) =>
      ((await call(admin, `/queues?q=orders&sort=${sort}`)).json.items as Array<{ queueName: string }>).map(
        (row) => row.queueName,
      );
    expect(await searchBy('-messageCount')).toEqual(['orders', 'orders.retry', 'orders.invoiced']);
    expect(await searchBy('-queueName')).toEqual(['orders.retry', 'orders.invoiced', 'orders']);

    for (const path of ['/fleet?sort=secret', '/triage?sort=password', '/queues?q=orders&sort=1;DROP']) {
      const refused = await call(admin, path);
      expect([refused.status, refused.json.type], path).toEqual([400, 'validation-failed']);
    }
  });

  it('shows a viewer of one environment only its clusters, in the fleet, triage and search alike', async () => {
    const fleet = (await call(viewer, '/fleet')).json as unknown as FleetAnswer;
    expect(fleet.clusters.map((cluster) => cluster.name)).toEqual(['payments']);
    const worst = (await call(viewer, '/triage')).json.items as Array<{ clusterName: string }>;
    expect(new Set(worst.map((row) => row.clusterName))).toEqual(new Set(['payments']));
    const found = (await call(viewer, '/queues?q=orders')).json.items as Array<{ clusterName: string }>;
    expect(new Set(found.map((row) => row.clusterName))).toEqual(new Set(['payments']));
  });
});
