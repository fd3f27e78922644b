// Alerts and rules under scoped grants, on a real database: an operator granted one environment sees, acknowledges
// and silences the alerts of its clusters only; another cluster's alert answers as if it did not exist; rules are
// listed, read, created, changed and moved by the scope they cover; channels change only with a global grant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import { callRest } from '@test/rest-call.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { evaluateCluster } from './evaluator.ts';

let secured: SecuredRuntime;
let admin: AuthHeaders;
let operator: AuthHeaders;
let prod = '';
const clusters = { payments: '', billing: '' };
const rules = { payments: '', billing: '', prod: '', everywhere: '' };

const call = (headers: AuthHeaders, method: string, path: string, body?: unknown) =>
  callRest(secured.rest, headers, method, path, body);

const depthRule = (name: string, scope: { clusterId?: string; environmentId?: string }) => ({
  name,
  condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 10 } },
  severity: 'warning',
  forSeconds: 0,
  ...scope,
});

async function created(body: unknown): Promise<string> {
  const answer = await call(admin, 'POST', '/alerts/rules', body);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return (answer.json.rule as { id: string }).id;
}

const items = (json: Record<string, unknown>) => json.items as Array<Record<string, unknown>>;

beforeAll(async () => {
  secured = await openSecuredRuntime();
  admin = await signIn(secured.rest, 'http://127.0.0.1');
  await allowChannelNetworks(
    (method, path, body) => call(admin, method, path, body),
    '127.0.0.1',
    secured.runtime.settings,
  );
  const { prisma } = secured.runtime;
  prod = (await call(admin, 'POST', '/environments', { name: 'prod' })).json.id as string;
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
      { queueName: `${name}.in`, messageCount: 50 },
    ]);
  }
  rules.payments = await created(depthRule('payments deep', { clusterId: clusters.payments }));
  rules.billing = await created(depthRule('billing deep', { clusterId: clusters.billing }));
  rules.prod = await created(depthRule('prod deep', { environmentId: prod }));
  rules.everywhere = await created(depthRule('anything deep', {}));
  const deps = { db: secured.runtime.db, prisma, registry: secured.runtime.registry };
  await evaluateCluster(deps, clusters.payments);
  await evaluateCluster(deps, clusters.billing);

  const user = await call(admin, 'POST', '/users', {
    username: 'otto',
    password: 'a long password for the operator',
    mustChangePassword: false,
  });
  expect(user.status, JSON.stringify(user.json)).toBe(200);
  const role = await prisma.role.findFirstOrThrow({ where: { name: 'operator' } });
  const grant = await call(admin, 'POST', '/grants', {
    userId: (user.json.user as { id: string }).id,
    roleId: role.id,
    scope: { kind: 'ENVIRONMENT', id: prod },
  });
  expect(grant.status).toBe(200);
  operator = await signIn(secured.rest, 'http://127.0.0.1', {
    username: 'otto',
    password: 'a long password for the operator',
  });
});

afterAll(async () => {
  await secured.close();
});

describe('alerts under an environment grant', () => {
  it('lists and counts only the alerts of the clusters the grant reaches', async () => {
    const all = await call(admin, 'GET', '/alerts?view=firing');
    expect(new Set(items(all.json).map((alert) => alert.clusterId))).toEqual(
      new Set([clusters.payments, clusters.billing]),
    );
    const mine = await call(operator, 'GET', '/alerts?view=firing');
    expect(mine.status).toBe(200);
    expect(items(mine.json).length).toBeGreaterThan(0);
    expect(items(mine.json).every((alert) => alert.clusterId === clusters.payments)).toBe(true);
    const filtered = await call(operator, 'GET', `/alerts?view=firing&clusterId=${clusters.billing}`);
    expect(items(filtered.json)).toEqual([]);
    const counts = await call(operator, 'GET', '/alerts/firing-by-cluster');
    expect(items(counts.json).map((row) => row.clusterId)).toEqual([clusters.payments]);
  });

  it('acknowledges an alert of its cluster; another cluster’s alert answers as unknown', async () => {
    const firing = items((await call(admin, 'GET', '/alerts?view=firing')).json);
    const own = firing.find((alert) => alert.clusterId === clusters.payments);
    const foreign = firing.find((alert) => alert.clusterId === clusters.billing);
    const acknowledged = await call(operator, 'POST', `/alerts/${String(own?.id)}/acknowledge`, {});
    expect(acknowledged.status, JSON.stringify(acknowledged.json)).toBe(200);
    expect(acknowledged.json.acknowledgedBy).toBe('otto');
    const refused = await call(operator, 'POST', `/alerts/${String(foreign?.id)}/acknowledge`, {});
    const unknown = await call(operator, 'POST', `/alerts/00000000-0000-4000-8000-000000000000/acknowledge`, {});
    expect(refused.status).toBe(404);
    expect(refused.json.detail).toBe(unknown.json.detail);
    const silenced = await call(operator, 'POST', `/alerts/${String(foreign?.id)}/silence`, {
      until: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'not mine',
    });
    expect(silenced.status).toBe(404);
    expect((await call(operator, 'GET', `/alerts/${String(foreign?.id)}/deliveries`)).status).toBe(404);
    const untouched = await secured.runtime.prisma.alert.findUniqueOrThrow({ where: { id: String(foreign?.id) } });
    expect(untouched.acknowledgedBy).toBeNull();
    expect(untouched.silencedUntil).toBeNull();
  });
});

describe('rules under an environment grant', () => {
  it('lists the rules of its cluster and environment, not another cluster’s nor the global ones', async () => {
    const listed = await call(operator, 'GET', '/alerts/rules?pageSize=100');
    expect(listed.status).toBe(200);
    const names = items(listed.json).map((rule) => rule.name);
    expect(names).toContain('payments deep');
    expect(names).toContain('prod deep');
    expect(names).not.toContain('billing deep');
    expect(names).not.toContain('anything deep');
    expect((await call(operator, 'GET', `/alerts/rules/${rules.billing}`)).status).toBe(404);
    expect((await call(operator, 'GET', `/alerts/rules/${rules.prod}`)).status).toBe(200);
  });

  it('creates in its scope, answers an unseen cluster as unknown, and refuses a rule over every cluster', async () => {
    const own = await call(operator, 'POST', '/alerts/rules', depthRule('otto’s', { clusterId: clusters.payments }));
    expect(own.status, JSON.stringify(own.json)).toBe(200);
    const foreign = await call(operator, 'POST', '/alerts/rules', depthRule('nope', { clusterId: clusters.billing }));
    expect(foreign.status).toBe(404);
    expect(foreign.json.type).toContain('cluster-not-found');
    const global = await call(operator, 'POST', '/alerts/rules', depthRule('nope', {}));
    expect(global.status).toBe(403);
    expect(global.json.permission).toBe('alert:write');
    expect(await secured.runtime.prisma.alertRule.count({ where: { name: 'nope' } })).toBe(0);
  });

  it('changes a rule of its scope, cannot move it out, and cannot touch another cluster’s', async () => {
    const changed = await call(operator, 'PATCH', `/alerts/rules/${rules.payments}`, { severity: 'critical' });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    const moved = await call(operator, 'PATCH', `/alerts/rules/${rules.payments}`, { clusterId: clusters.billing });
    expect(moved.status).toBe(404);
    const widened = await call(operator, 'PATCH', `/alerts/rules/${rules.prod}`, { environmentId: null });
    expect(widened.status).toBe(403);
    expect((await call(operator, 'DELETE', `/alerts/rules/${rules.billing}`)).status).toBe(404);
    const kept = await secured.runtime.prisma.alertRule.findUniqueOrThrow({ where: { id: rules.payments } });
    expect(kept.clusterId).toBe(clusters.payments);
    expect(
      (await secured.runtime.prisma.alertRule.findUniqueOrThrow({ where: { id: rules.prod } })).environmentId,
    ).toBe(prod);
  });

  it('reads channels to pick from but changes them only with a global grant', async () => {
    expect((await call(operator, 'GET', '/alerts/channels')).status).toBe(200);
    const channel = await call(operator, 'POST', '/alerts/channels', {
      name: 'ops hook',
      config: { kind: 'webhook', url: 'http://127.0.0.1:9/hook', secret: 'a-secret-of-sixteen+' },
    });
    expect(channel.status).toBe(403);
  });
});
