// One alert's transition history over REST, on a real database (`GET /api/v1/alerts/{id}/transitions`, the alert
// drawer's second list beside the delivery log): every transition of that alert and no other's, oldest first, with
// who made it; read with alert:read on the alert's cluster (a viewer's grant is enough, and changes nothing), while
// another cluster's alert answers exactly like an id that does not exist, and a malformed id as problem+json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues, recountTotals } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { evaluateCluster } from './evaluator.ts';

let secured: SecuredRuntime;
let admin: AuthHeaders;
let viewer: AuthHeaders;
const clusters = { payments: '', billing: '' };
const alerts = { payments: '', billing: '' };

async function call(headers: AuthHeaders, method: string, path: string, body?: unknown) {
  const response = await secured.rest(
    new Request(`http://127.0.0.1/api/v1${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    json: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

interface Transition {
  seq: string;
  transition: string;
  state: string;
  actor: string;
  value: number | null;
  at: string;
}

const transitionsOf = (json: Record<string, unknown>) => json.items as Transition[];

beforeAll(async () => {
  secured = await openSecuredRuntime();
  admin = await signIn(secured.rest, 'http://127.0.0.1');
  const { prisma } = secured.runtime;
  const prod = (await call(admin, 'POST', '/environments', { name: 'prod' })).json.id as string;
  clusters.payments = await insertClusterRow(prisma, { name: 'payments', environmentId: prod });
  clusters.billing = await insertClusterRow(prisma, { name: 'billing' });
  for (const [name, clusterId] of Object.entries(clusters)) {
    const nodeId = await insertScrapedNode(prisma, {
      clusterId,
      brokerNodeId: `${name}-1`,
      brokerName: `${name}-1`,
      serving: true,
      sweptAt: new Date(),
    });
    await insertScrapedQueues(prisma, { clusterId, nodeId, scrapedAt: new Date() }, [
      { queueName: 'orders.in', messageCount: 50 },
    ]);
  }
  for (const [name, clusterId] of Object.entries(clusters)) {
    const rule = await call(admin, 'POST', '/alerts/rules', {
      name: `${name} backlog`,
      condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 10 } },
      severity: 'warning',
      forSeconds: 30,
      clusterId,
    });
    expect(rule.status, JSON.stringify(rule.json)).toBe(200);
  }

  const user = await call(admin, 'POST', '/users', {
    username: 'vera',
    password: 'a long password for the viewer',
    mustChangePassword: false,
  });
  expect(user.status, JSON.stringify(user.json)).toBe(200);
  const role = await prisma.role.findFirstOrThrow({ where: { name: 'viewer' } });
  const grant = await call(admin, 'POST', '/grants', {
    userId: (user.json.user as { id: string }).id,
    roleId: role.id,
    scope: { kind: 'ENVIRONMENT', id: prod },
  });
  expect(grant.status, JSON.stringify(grant.json)).toBe(200);
  viewer = await signIn(secured.rest, 'http://127.0.0.1', {
    username: 'vera',
    password: 'a long password for the viewer',
  });
});

afterAll(async () => {
  await secured.close();
});

describe('an alert’s transition history', () => {
  it('lists pending, firing, acknowledged and resolved, oldest first, with who made each', async () => {
    const { prisma } = secured.runtime;
    const deps = { db: secured.runtime.db, prisma, registry: secured.runtime.registry };
    const t0 = Date.now();
    await evaluateCluster(deps, clusters.payments, new Date(t0));
    await evaluateCluster(deps, clusters.billing, new Date(t0));
    await evaluateCluster(deps, clusters.payments, new Date(t0 + 31_000));
    await evaluateCluster(deps, clusters.billing, new Date(t0 + 31_000));
    const firing = (await call(admin, 'GET', '/alerts?view=firing')).json.items as { id: string; clusterId: string }[];
    alerts.payments = firing.find((alert) => alert.clusterId === clusters.payments)?.id ?? '';
    alerts.billing = firing.find((alert) => alert.clusterId === clusters.billing)?.id ?? '';
    expect(alerts.payments).not.toBe('');
    expect(alerts.billing).not.toBe('');

    expect((await call(admin, 'POST', `/alerts/${alerts.payments}/acknowledge`, {})).status).toBe(200);
    // A dry run changes nothing, so it is no transition.
    expect((await call(admin, 'POST', `/alerts/${alerts.payments}/acknowledge`, { dryRun: true })).status).toBe(200);
    await prisma.queueSnapshot.updateMany({
      where: { clusterId: clusters.payments, queueName: 'orders.in' },
      data: { messageCount: 3n },
    });
    await recountTotals(prisma, clusters.payments);
    await evaluateCluster(deps, clusters.payments, new Date(t0 + 50_000));

    const answer = await call(admin, 'GET', `/alerts/${alerts.payments}/transitions`);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const items = transitionsOf(answer.json);
    expect(items.map(({ transition, state, actor }) => ({ transition, state, actor }))).toEqual([
      { transition: 'pending', state: 'pending', actor: 'system' },
      { transition: 'firing', state: 'firing', actor: 'system' },
      { transition: 'acknowledged', state: 'firing', actor: 'admin' },
      { transition: 'resolved', state: 'resolved', actor: 'system' },
    ]);
    expect(items[0]?.value).toBe(50);
    expect(items[0]?.at).toBe(new Date(t0).toISOString());
    expect(items[1]?.at).toBe(new Date(t0 + 31_000).toISOString());
    const seqs = items.map((item) => BigInt(item.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(seqs).size).toBe(4);

    // Another alert's history is its own.
    const other = transitionsOf((await call(admin, 'GET', `/alerts/${alerts.billing}/transitions`)).json);
    expect(other.map((item) => item.transition)).toEqual(['pending', 'firing']);
  });

  it('is read by a viewer of the alert’s cluster, who still cannot acknowledge it', async () => {
    const mine = await call(viewer, 'GET', `/alerts/${alerts.payments}/transitions`);
    expect(mine.status, JSON.stringify(mine.json)).toBe(200);
    expect(transitionsOf(mine.json).map((item) => item.transition)).toEqual([
      'pending',
      'firing',
      'acknowledged',
      'resolved',
    ]);
    expect((await call(viewer, 'GET', `/alerts/${alerts.payments}/deliveries`)).status).toBe(200);
    const refused = await call(viewer, 'POST', `/alerts/${alerts.payments}/silence`, {
      until: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'only looking',
    });
    expect(refused.status).toBe(403);
    expect(refused.json.permission).toBe('alert:write');
    const after = transitionsOf((await call(admin, 'GET', `/alerts/${alerts.payments}/transitions`)).json);
    expect(after).toHaveLength(4);
  });

  it('answers another cluster’s alert exactly like an unknown id, and a malformed id as a problem', async () => {
    const foreign = await call(viewer, 'GET', `/alerts/${alerts.billing}/transitions`);
    const unknown = await call(viewer, 'GET', '/alerts/00000000-0000-4000-8000-000000000000/transitions');
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    // Alike but for the request's own id and path.
    const stable = (json: Record<string, unknown>) => ({ ...json, instance: undefined, requestId: undefined });
    expect(stable(foreign.json)).toEqual(stable(unknown.json));
    expect(foreign.json).toMatchObject({ type: 'not-found', detail: 'There is no alert with that id.' });
    expect(foreign.type).toContain('application/problem+json');

    const malformed = await call(viewer, 'GET', '/alerts/not-an-id/transitions');
    expect(malformed.status).toBe(400);
    expect(malformed.type).toContain('application/problem+json');
  });
});
