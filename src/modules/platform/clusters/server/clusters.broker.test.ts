// Registration on real brokers through the REST handler, with a real PostgreSQL: discovery from one seed, the
// HA pair as one logical node, dry run, wrong password, credentials unreadable in the database, and the CRUD
// endpoints with their audit rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, startHaPair, type Topology } from '@test/artemis/index.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import type {
  capabilitiesOutput,
  clusterDetailSchema,
  listClustersOutput,
  mutationOutput,
  nodesOutput,
  registerOutput,
} from './clusters.schema.ts';
import { type WebRuntime } from '@/server/runtime/web-runtime.ts';

let secured: SecuredRuntime;
let runtime: WebRuntime;
let call: RestCall;
let cluster: Topology | undefined;
let pair: Topology | undefined;
/** Two clustered nodes on unrelated random ports: no rule leads from one node's ports to the other's. */
let scattered: Topology | undefined;
const published: unknown[] = [];
// A password no other text in the database could contain by chance.
const BROKER_USER = { user: 'flotilla', password: `Broker-${randomBytes(9).toString('hex')}`, role: 'amq' };

type Registered = z.infer<typeof registerOutput> & { type?: string };
type Nodes = z.infer<typeof nodesOutput>;
type List = z.infer<typeof listClustersOutput>;
type Detail = z.infer<typeof clusterDetailSchema>;
type Capabilities = z.infer<typeof capabilitiesOutput>;
type Mutation = z.infer<typeof mutationOutput>;

function registration(topology: Topology | undefined, name: string, overrides: Record<string, unknown> = {}) {
  const seed = topology?.nodes[0];
  if (!seed) throw new Error('no seed');
  return {
    name,
    environment: 'test-env',
    nodes: [{ managementUrl: seed.managementUrl }],
    credentials:
      topology === cluster
        ? { username: BROKER_USER.user, password: BROKER_USER.password }
        : { username: seed.user, password: seed.password },
    ...overrides,
  };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ runtime } = secured);
  ({ call } = await secured.signedIn());
  runtime.notifications.subscribe('ClusterRegistered', (payload) => void published.push(payload));
  runtime.notifications.subscribe('ClusterChanged', (payload) => void published.push(payload));
  // Ports like `artemis create --port-offset`, so management URLs follow from the topology's connectors.
  [cluster, pair, scattered] = await Promise.all([
    startCluster({ portOffset: 7, extraUsers: [BROKER_USER] }),
    startHaPair({ portOffset: 11 }),
    startCluster(),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([cluster?.stop(), pair?.stop(), scattered?.stop()]);
  await (secured as SecuredRuntime | undefined)?.close();
});

async function untilTopologyHas(topology: Topology | undefined, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { json } = await call<Registered>(
      'POST',
      '/clusters?dryRun=true',
      registration(topology, `probe-${Date.now()}`),
    );
    if (json.nodes.length >= count) return;
    if (Date.now() > deadline) throw new Error(`topology never showed ${count} nodes: ${JSON.stringify(json)}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

describe('cluster registration on real brokers', () => {
  it('a dry run probes, answers every check, and saves nothing', async () => {
    await untilTopologyHas(cluster, 2);
    const { status, json } = await call<Registered>('POST', '/clusters?dryRun=true', registration(cluster, 'dry'));
    expect(status).toBe(200);
    expect(json.clusterId).toBeNull();
    expect(json.checks.map((check: { id: string }) => check.id)).toEqual(
      expect.arrayContaining(['reachability', 'authentication', 'version', 'capabilities', 'topology']),
    );
    expect(await runtime.prisma.cluster.count()).toBe(0);
    expect(await runtime.prisma.environment.count()).toBe(0);
  });

  it('wrong password: the auth check fails with advice, 422, nothing saved, a REFUSED audit row', async () => {
    const body = registration(cluster, 'wrong', { credentials: { username: 'admin', password: 'not-the-password' } });
    const { status, json } = await call<Registered>('POST', '/clusters', body);
    expect(status).toBe(422);
    expect(json.type).toBe('registration-checks-failed');
    const authCheck = json.checks.find((check) => check.id === 'authentication');
    expect(authCheck).toMatchObject({ status: 'fail', blocking: true });
    expect(authCheck?.advice?.length).toBeGreaterThan(20);
    expect(await runtime.prisma.cluster.count()).toBe(0);
    const audit = await runtime.prisma.auditEvent.findFirst({ where: { action: 'cluster.register', target: 'wrong' } });
    expect(audit?.outcome).toBe('REFUSED');
    expect(JSON.stringify(audit?.parameters)).not.toContain('not-the-password');
  });

  it('registers the two-node cluster from one seed: both nodes found as primaries', async () => {
    const { status, json } = await call<Registered>(
      'POST',
      '/clusters',
      registration(cluster, 'orders', { description: 'two live nodes' }),
    );
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.checks.filter((check: { status: string }) => check.status === 'fail')).toEqual([]);
    const clusterId = json.clusterId ?? '';
    const nodes = await call<Nodes>('GET', `/clusters/${clusterId}/nodes`);
    expect(nodes.json.total).toBe(2);
    expect(nodes.json.items.map((node: { managementUrl: string }) => node.managementUrl).sort()).toEqual(
      (cluster?.nodes ?? []).map((node) => node.managementUrl).sort(),
    );
    expect(nodes.json.items.map((node: { role: string }) => node.role)).toEqual(['PRIMARY', 'PRIMARY']);
    expect(nodes.json.items.filter((node: { discovered: boolean }) => node.discovered)).toHaveLength(1);
    // The seed was given; the other node's URL followed the seed's port offset and its NodeID confirmed it.
    expect(nodes.json.items.map((node) => node.urlSource).sort()).toEqual(['given', 'seed-offset']);
    const found = json.nodes.find((node) => node.discovered);
    expect(found?.urlSource.detail).toMatch(
      /^connector 127\.0\.0\.1:\d+ in the seed's topology; .*confirmed by the broker's NodeID$/,
    );
    expect(new Set(nodes.json.items.map((node: { logicalNode: string }) => node.logicalNode)).size).toBe(2);
    expect(published).toContainEqual({ clusterId, name: 'orders', environmentId: expect.any(String) as string });
    const audit = await runtime.prisma.auditEvent.findFirst({ where: { action: 'cluster.register', clusterId } });
    expect(audit).toMatchObject({ outcome: 'SUCCEEDED', clusterName: 'orders', dryRun: false });
  });

  it('never takes a guessed URL for a node the broker does not confirm, and says what it tried', async () => {
    await untilTopologyHas(scattered, 2);
    const [seed, other] = scattered?.nodes ?? [];
    const { status, json } = await call<Registered>(
      'POST',
      '/clusters?dryRun=true',
      registration(scattered, 'scattered'),
    );
    expect(status, JSON.stringify(json)).toBe(200);
    const discovered = json.nodes.find((node) => node.discovered);
    expect(discovered).toMatchObject({ role: 'UNKNOWN', brokerNodeId: null, urlSource: { method: 'not-confirmed' } });
    expect(discovered?.managementUrl).not.toBe(other?.managementUrl);
    expect(discovered?.urlSource.detail).toContain('no management URL answered as this node (tried http://127.0.0.1:');
    const reachability = json.checks.find((check) => check.id === 'reachability');
    expect(reachability).toMatchObject({ status: 'warn' });
    expect(reachability?.advice).toContain('give the node with both its managementUrl and amqpUrl');
    // The seed's AMQP URL came from what the broker reported (its topology entry), though it was not given.
    expect(json.nodes[0]?.amqpUrl).toBe(seed?.amqpUrl);

    // Given both, nothing is guessed: both nodes answer as themselves.
    const both = await call<Registered>(
      'POST',
      '/clusters?dryRun=true',
      registration(scattered, 'scattered', {
        nodes: (scattered?.nodes ?? []).map((node) => ({ managementUrl: node.managementUrl, amqpUrl: node.amqpUrl })),
      }),
    );
    expect(both.json.nodes.map((node) => [node.urlSource.method, node.role])).toEqual([
      ['given', 'PRIMARY'],
      ['given', 'PRIMARY'],
    ]);
  });

  it('registers the HA pair as one logical node with a PRIMARY and a BACKUP', async () => {
    await untilTopologyHas(pair, 2);
    const { status, json } = await call<Registered>(
      'POST',
      '/clusters',
      registration(pair, 'payments', { environment: 'prod' }),
    );
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.logicalNodeCount).toBe(1);
    const nodes = await call<Nodes>('GET', `/clusters/${json.clusterId ?? ''}/nodes`);
    expect(nodes.json.items.map((node: { role: string }) => node.role).sort()).toEqual(['BACKUP', 'PRIMARY']);
    expect(new Set(nodes.json.items.map((node: { logicalNode: string }) => node.logicalNode)).size).toBe(1);
    expect(new Set(nodes.json.items.map((node) => node.brokerNodeId)).size).toBe(1);
    const backup = nodes.json.items.find((node: { role: string }) => node.role === 'BACKUP');
    expect(backup?.managementUrl).toBe(pair?.nodes[1]?.managementUrl);
  });

  it('keeps the password unreadable in the database and never returns it', async () => {
    const client = new pg.Client({ connectionString: secured.databaseUrl });
    await client.connect();
    try {
      const dump = await client.query(
        `SELECT row_to_json(c)::text AS row FROM cluster c UNION ALL SELECT row_to_json(a)::text FROM audit_event a`,
      );
      const everything = dump.rows.map((row: { row: string }) => row.row).join('\n');
      const password = BROKER_USER.password;
      expect(everything).toContain('password_cipher');
      expect(everything).toContain(`"username":"${BROKER_USER.user}"`);
      expect(everything).not.toContain(password);
      expect(everything).not.toContain(Buffer.from(password).toString('base64'));
      expect(everything).not.toContain(Buffer.from(password).toString('hex'));
    } finally {
      await client.end();
    }
    const list = await call<List>('GET', '/clusters');
    expect(JSON.stringify(list.json)).not.toMatch(/password/i);
    const one = await call<Detail>('GET', `/clusters/${list.json.items[0]?.id ?? ''}`);
    expect(JSON.stringify(one.json)).not.toMatch(/password|cipher/i);
  });

  it('lists, gets, edits and removes clusters, each change audited with the cluster name kept', async () => {
    const list = await call<List>('GET', '/clusters?sort=name');
    expect(list.json.items.map((row: { name: string }) => row.name)).toEqual(['orders', 'payments']);
    const orders = list.json.items[0];
    if (!orders) throw new Error('no clusters listed');
    expect(orders).toMatchObject({ nodeCount: 2, logicalNodeCount: 2, environment: { name: 'test-env' } });
    expect(orders.capabilities.MANAGEMENT_READ).toBe('AVAILABLE');
    const filtered = await call<List>('GET', '/clusters?environment=prod');
    expect(filtered.json.items.map((row: { name: string }) => row.name)).toEqual(['payments']);

    const one = await call<Detail>('GET', `/clusters/${orders.id}`);
    expect(one.json).toMatchObject({ name: 'orders', splitBrain: false, tls: null });
    const capabilities = await call<Capabilities>('GET', `/clusters/${orders.id}/capabilities`);
    expect(capabilities.json.items.map((row: { capability: string }) => row.capability)).toContain('MANAGEMENT_WRITE');

    const before = await runtime.prisma.cluster.findUniqueOrThrow({ where: { id: orders.id } });
    const dry = await call<Mutation>('PATCH', `/clusters/${orders.id}?dryRun=true`, { name: 'orders-renamed' });
    expect(dry.json).toMatchObject({ dryRun: true, changed: ['name'] });
    expect((await runtime.prisma.cluster.findUniqueOrThrow({ where: { id: orders.id } })).name).toBe('orders');
    const patched = await call<Mutation>('PATCH', `/clusters/${orders.id}`, {
      name: 'orders-renamed',
      credentials: { username: 'admin', password: 'admin' },
    });
    expect(patched.json.changed).toEqual(['name', 'credentials']);
    const after = await runtime.prisma.cluster.findUniqueOrThrow({ where: { id: orders.id } });
    expect(after.passwordCipher).not.toBe(before.passwordCipher);

    const inUse = await call('DELETE', `/environments/${after.environmentId ?? ''}`);
    expect(inUse.status).toBe(409);
    expect(inUse.json.type).toBe('environment-in-use');

    const removed = await call('DELETE', `/clusters/${orders.id}`);
    expect(removed.status).toBe(200);
    expect(await call('GET', `/clusters/${orders.id}`)).toMatchObject({ status: 404 });
    const rows = await runtime.prisma.auditEvent.findMany({
      where: { clusterId: orders.id },
      orderBy: { startedAt: 'asc' },
    });
    expect(rows.map((row) => [row.action, row.dryRun, row.clusterName])).toEqual([
      ['cluster.register', false, 'orders'],
      ['cluster.update', true, 'orders'],
      ['cluster.update', false, 'orders'],
      ['cluster.remove', false, 'orders-renamed'],
    ]);
    const freed = await call('DELETE', `/environments/${after.environmentId ?? ''}`);
    expect(freed.status).toBe(200);
  });

  it('rediscovers a cluster from its stored, encrypted credentials', async () => {
    const payments = (await call<List>('GET', '/clusters?q=payments')).json.items[0];
    const { status, json } = await call<Registered>('POST', `/clusters/${payments?.id ?? ''}/rediscover?dryRun=true`);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.nodes).toHaveLength(2);
  });

  it('registers by management URLs only: each given node is matched by its NodeID, no phantom, AMQP URLs found', async () => {
    await untilTopologyHas(scattered, 2);
    const byUrls = (topology: Topology | undefined, name: string) =>
      registration(topology, name, {
        nodes: (topology?.nodes ?? []).map((node) => ({ managementUrl: node.managementUrl })),
      });
    const scatteredAnswer = await call<Registered>('POST', '/clusters?dryRun=true', byUrls(scattered, 'by-urls'));
    expect(scatteredAnswer.status, JSON.stringify(scatteredAnswer.json)).toBe(200);
    expect(
      scatteredAnswer.json.nodes.map((node) => [node.managementUrl, node.amqpUrl, node.role, node.discovered]),
    ).toEqual((scattered?.nodes ?? []).map((node) => [node.managementUrl, node.amqpUrl, 'PRIMARY', false]));
    expect(scatteredAnswer.json.logicalNodeCount).toBe(2);
    expect(scatteredAnswer.json.checks.find((check) => check.id === 'given-nodes')).toMatchObject({ status: 'ok' });

    const pairAnswer = await call<Registered>('POST', '/clusters?dryRun=true', byUrls(pair, 'pair-by-urls'));
    expect(pairAnswer.json.nodes.map((node) => [node.managementUrl, node.amqpUrl, node.role, node.discovered])).toEqual(
      [
        [pair?.nodes[0]?.managementUrl, pair?.nodes[0]?.amqpUrl, 'PRIMARY', false],
        [pair?.nodes[1]?.managementUrl, pair?.nodes[1]?.amqpUrl, 'BACKUP', false],
      ],
    );
    expect(pairAnswer.json.logicalNodeCount).toBe(1);
  });

  it('refuses, naming the node, a given URL that does not answer, another cluster’s broker, or one broker twice', async () => {
    const [seed, other] = scattered?.nodes ?? [];
    const attempts = [
      {
        managementUrl: 'http://127.0.0.1:1/console/jolokia',
        says: 'http://127.0.0.1:1/console/jolokia did not answer',
      },
      { managementUrl: pair?.nodes[0]?.managementUrl ?? '', says: "which the cluster's topology does not list" },
      { managementUrl: `${seed?.managementUrl ?? ''}/`, says: 'one broker given twice' },
    ];
    for (const attempt of attempts) {
      const body = registration(scattered, `bad-${attempts.indexOf(attempt)}`, {
        nodes: [{ managementUrl: seed?.managementUrl }, { managementUrl: other?.managementUrl }, attempt],
      });
      const { status, json } = await call<Registered>('POST', '/clusters', body);
      expect(status, JSON.stringify(json)).toBe(422);
      const check = json.checks.find((candidate) => candidate.id === 'given-nodes');
      expect(check).toMatchObject({ status: 'fail', blocking: true });
      expect(check?.detail).toContain(attempt.says);
      expect(check?.detail).toContain(attempt.managementUrl);
    }
    expect(await runtime.prisma.cluster.count({ where: { name: { startsWith: 'bad-' } } })).toBe(0);
  });

  it('gives a not-confirmed node its URLs in place: probed, audited, dry run honoured; bad URLs change nothing', async () => {
    const [seed, other] = scattered?.nodes ?? [];
    const registered = await call<Registered>('POST', '/clusters', registration(scattered, 'edit-in-place'));
    const clusterId = registered.json.clusterId ?? '';
    const stored = await call<Nodes>('GET', `/clusters/${clusterId}/nodes`);
    const phantom = stored.json.items.find((node) => node.urlSource === 'not-confirmed');
    if (!phantom) throw new Error(`no not-confirmed node: ${JSON.stringify(stored.json)}`);
    const path = `/clusters/${clusterId}/nodes/${phantom.id}`;

    const refusedWith = async (managementUrl: string, says: string) => {
      const { status, json } = await call<{ type: string; detail: string }>('PATCH', path, { managementUrl });
      expect(status, JSON.stringify(json)).toBe(422);
      expect(json.type).toBe('node-check-failed');
      expect(json.detail).toContain(says);
    };
    await refusedWith('http://127.0.0.1:1/console/jolokia', 'did not answer');
    await refusedWith(seed?.managementUrl ?? '', 'is another node of this cluster');
    await refusedWith(pair?.nodes[0]?.managementUrl ?? '', 'does not list');
    const unchanged = await runtime.prisma.clusterNode.findUniqueOrThrow({ where: { id: phantom.id } });
    expect([unchanged.managementUrl, unchanged.urlSource]).toEqual([phantom.managementUrl, 'not-confirmed']);

    const dry = await call<Mutation>('PATCH', `${path}?dryRun=true`, { managementUrl: other?.managementUrl });
    expect(dry.json).toMatchObject({ dryRun: true, changed: ['managementUrl'] });
    expect((await runtime.prisma.clusterNode.findUniqueOrThrow({ where: { id: phantom.id } })).managementUrl).toBe(
      phantom.managementUrl,
    );

    const saved = await call<Mutation>('PATCH', path, { managementUrl: other?.managementUrl });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const after = (await call<Nodes>('GET', `/clusters/${clusterId}/nodes`)).json.items.find(
      (node) => node.id === phantom.id,
    );
    expect(after).toMatchObject({
      managementUrl: other?.managementUrl,
      amqpUrl: other?.amqpUrl,
      urlSource: 'given',
      role: 'PRIMARY',
      lastError: null,
    });
    expect(after?.brokerNodeId).toBeTruthy();
    expect(published).toContainEqual({ clusterId, change: 'updated' });
    const audit = await runtime.prisma.auditEvent.findMany({
      where: { clusterId, action: 'cluster.node.update' },
      orderBy: { startedAt: 'asc' },
    });
    expect(audit.map((row) => [row.dryRun, row.outcome])).toEqual([
      [true, 'SUCCEEDED'],
      [false, 'SUCCEEDED'],
    ]);

    // Removal: one node goes (audited); the last one cannot.
    const removed = await call<Mutation>('DELETE', path);
    expect(removed.json).toMatchObject({ changed: ['removed'] });
    const last = (await call<Nodes>('GET', `/clusters/${clusterId}/nodes`)).json.items;
    expect(last).toHaveLength(1);
    const refused = await call('DELETE', `/clusters/${clusterId}/nodes/${last[0]?.id ?? ''}`);
    expect([refused.status, refused.json.type]).toEqual([409, 'last-node']);
    expect((await call('DELETE', `/clusters/${clusterId}/nodes/${phantom.id}`)).status).toBe(404);
  });
});
