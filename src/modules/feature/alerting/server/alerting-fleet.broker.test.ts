// Alerting across a fleet, on real brokers and a real PostgreSQL, each notification to a local HTTP listener through
// a signed webhook channel:
// - two Flotilla instances (two sets of worker services on one database) watch a real two-node cluster whose
//   built-in node-down rule has that webhook as its only channel: a node killed with kill -9 makes the alert fire
//   once and the listener receive exactly one firing notification (not one per instance); the instance owning the
//   cluster then stops and the other takes it over without firing again; the node back, exactly one resolved;
// - a replicated pair whose replication link runs through the fault proxy: the link cut, both members serve, the
//   built-in split-brain rule (critical) fires and its notification reaches the listener as critical; healed (link
//   back, the rogue backup restarted passive), it resolves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookListener, type HookListener } from '@test/hook-listener.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import { startCluster, type BrokerNode } from '@test/artemis/index.ts';
import { startHaPairBehindProxy, type HaPairBehindProxy } from '@test/artemis/ha-pair-behind-proxy.ts';
import { queryDatabase } from '@test/database.ts';
import { openTestRuntimes, startHaScenario, type HaScenario, type TestRuntimes } from '@test/worker-kit.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime } from '@test/secured-runtime.ts';
import { signatureOf, SIGNATURE_HEADER } from './channels.ts';

const SECRET = 'the-fleet-test-signing-secret';
/** How long to keep listening after a notification arrived, for a duplicate to show up if one would. */
const DUPLICATE_WINDOW_MS = 6_000;

interface Notification {
  readonly event: string;
  readonly alert: {
    id: string;
    rule: string;
    severity: string;
    clusterId: string;
    cluster: string;
    subject: string;
    state: string;
    value: number | null;
  };
}

let listener: HookListener;

/** The notifications the listener listener.received for a rule, in arrival order, each checked for a valid signature. */
function notificationsOf(rule: string): Notification[] {
  return listener.received
    .filter((request) => {
      const payload = JSON.parse(request.body) as Notification;
      return payload.alert.rule === rule;
    })
    .map((request) => {
      expect(request.headers[SIGNATURE_HEADER]).toBe(signatureOf(SECRET, request.body));
      return JSON.parse(request.body) as Notification;
    });
}
const eventsOf = (rule: string) => notificationsOf(rule).map((payload) => `${payload.event} ${payload.alert.subject}`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The REST edge on a scenario's database, signed in as the first admin. */
async function openApi(databaseUrl: string, instanceId: string) {
  const secured = await openSecuredRuntime({ databaseUrl, instanceId });
  const web = secured.runtime;
  const { call } = await secured.signedIn();
  // The test's listener is on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', web.settings);
  return { web, call, close: () => secured.close() };
}
type Api = Awaited<ReturnType<typeof openApi>>;

/** Creates the signed webhook channel and makes it the only channel of the cluster's built-in rule; its name. */
async function routeBuiltInToListener(api: Api, builtIn: string, change: Record<string, unknown> = {}) {
  const channel = await api.call<{ id: string }>('POST', '/alerts/channels', {
    name: `listener for ${builtIn}`,
    config: { kind: 'webhook', url: listener.url, secret: SECRET },
  });
  expect(channel.status).toBe(200);
  const rules = await api.call<{ items: { id: string; name: string; builtIn: string | null; severity: string }[] }>(
    'GET',
    '/alerts/rules',
  );
  const rule = rules.json.items.find((candidate) => candidate.builtIn === builtIn);
  if (!rule) throw new Error(`no built-in ${builtIn} rule installed`);
  const edited = await api.call('PATCH', `/alerts/rules/${rule.id}`, { channelIds: [channel.json.id], ...change });
  expect(edited.status).toBe(200);
  return rule;
}

const SECOND_INSTANCE = 'alerting-second';

/** The instance sweeping the cluster now (the owner of its advisory lock). */
async function ownerOf(databaseUrl: string, clusterId: string): Promise<string> {
  const [row] = await queryDatabase<{ instance_id: string }>(
    databaseUrl,
    `SELECT instance_id FROM scrape_sweep WHERE cluster_id = $1 AND tier = 'A' ORDER BY last_started_at DESC LIMIT 1`,
    [clusterId],
  );
  if (!row) throw new Error('nobody sweeps the cluster');
  return row.instance_id;
}

/** The alert_transition rows of a rule, oldest first, as `transition subject`. */
async function transitionsOf(databaseUrl: string, ruleId: string): Promise<string[]> {
  const rows = await queryDatabase<{ transition: string; subject: string }>(
    databaseUrl,
    'SELECT transition, subject FROM alert_transition WHERE rule_id = $1 ORDER BY seq',
    [ruleId],
  );
  return rows.map((row) => `${row.transition} ${row.subject}`);
}

beforeAll(async () => {
  listener = await startHookListener('/alerts');
});

afterAll(async () => {
  await listener.close();
});

describe('node down, watched by two Flotilla instances on one database', () => {
  let scenario: HaScenario;
  let second: TestRuntimes | undefined;
  let api: Api;
  let nodes: [BrokerNode, BrokerNode];

  beforeAll(async () => {
    const cluster = await startCluster();
    nodes = cluster.nodes as [BrokerNode, BrokerNode];
    scenario = await startHaScenario('fleet-pair', cluster, 1_000);
    // The second instance: its own worker services (scrape, HA, alerting with its deliverer) on the same database.
    second = await openTestRuntimes(scenario.databaseUrl, [], SECOND_INSTANCE);
    api = await openApi(scenario.databaseUrl, 'alerting-fleet-web');
  }, 240_000);

  afterAll(async () => {
    await second?.close();
    await api.close();
    await scenario.stop();
  });

  it('fires once and resolves once, each delivered exactly once, across a handover of the cluster', async () => {
    const { clusterId, databaseUrl } = scenario;
    // Both instances compete for the cluster; one holds it.
    await waitFor(
      'both instances asking for the cluster, one owning it',
      async () => {
        const [row] = await queryDatabase<{ sessions: number; locks: number }>(
          databaseUrl,
          `SELECT count(DISTINCT a.pid)::int AS sessions,
                  count(l.pid) FILTER (WHERE l.locktype = 'advisory' AND l.granted)::int AS locks
             FROM pg_stat_activity a LEFT JOIN pg_locks l ON l.pid = a.pid
            WHERE a.application_name = 'flotilla-locks-clusters.owner' AND a.datname = current_database()`,
        );
        return row?.sessions === 2 && row.locks === 1 ? true : undefined;
      },
      30_000,
    );
    const rule = await routeBuiltInToListener(api, 'node-down', { forSeconds: 5 });
    await waitFor(
      'both nodes polled and up',
      async () => {
        const rows = await queryDatabase<{ up: boolean }>(
          databaseUrl,
          `SELECT last_success_at IS NOT NULL AND (last_failure_at IS NULL OR last_failure_at <= last_success_at) AS up
             FROM cluster_node WHERE cluster_id = $1`,
          [clusterId],
        );
        return rows.length === 2 && rows.every((row) => row.up) ? true : undefined;
      },
      30_000,
    );
    const down = nodes[1].managementUrl;

    await nodes[1].kill();
    await waitFor('the firing notification', () => (notificationsOf(rule.name).length > 0 ? true : undefined), 60_000);
    await pause(DUPLICATE_WINDOW_MS);
    const [firing] = notificationsOf(rule.name);
    expect(eventsOf(rule.name)).toEqual([`firing ${down}`]);
    expect(firing).toMatchObject({
      event: 'firing',
      alert: {
        rule: rule.name,
        severity: 'critical',
        clusterId,
        cluster: 'fleet-pair',
        subject: down,
        state: 'firing',
      },
    });

    // The instance that owns the cluster stops while the alert fires; the other takes the cluster over and judges
    // the same alert from the database: no second firing, and the resolution is its to send.
    const owner = await ownerOf(databaseUrl, clusterId);
    const stoppedAt = new Date();
    if (owner === SECOND_INSTANCE) {
      await second?.close();
      second = undefined;
    } else {
      await scenario.runtimes.close();
      // scenario.stop() closes its runtimes: they are closed already.
      Object.assign(scenario.runtimes, { close: () => Promise.resolve() });
    }
    await waitFor(
      'the other instance sweeping the cluster',
      async () => {
        const rows = await queryDatabase<{ instance_id: string }>(
          databaseUrl,
          `SELECT instance_id FROM scrape_sweep WHERE cluster_id = $1 AND tier = 'A' AND last_started_at > $2`,
          [clusterId, stoppedAt],
        );
        return rows.length > 0 && rows.every((row) => row.instance_id !== owner) ? true : undefined;
      },
      30_000,
    );
    await pause(DUPLICATE_WINDOW_MS);
    expect(eventsOf(rule.name)).toEqual([`firing ${down}`]);

    await nodes[1].start();
    await waitFor(
      'the resolved notification',
      () => (notificationsOf(rule.name).length > 1 ? true : undefined),
      90_000,
    );
    await pause(DUPLICATE_WINDOW_MS);
    expect(eventsOf(rule.name)).toEqual([`firing ${down}`, `resolved ${down}`]);
    expect(notificationsOf(rule.name)[1]?.alert.id).toBe(firing?.alert.id);
    // Nothing else reached the listener: the other built-ins have no channel.
    expect(listener.received).toHaveLength(2);

    // One alert, stepped once per transition, with one delivery per transition, each sent at the first attempt.
    const alerts = await api.call<{ items: { id: string; state: string; subject: string }[] }>(
      'GET',
      `/alerts?view=all&clusterId=${clusterId}&q=${encodeURIComponent(rule.name)}`,
    );
    expect(alerts.json.items).toMatchObject([{ id: firing?.alert.id, state: 'resolved', subject: down }]);
    expect(await transitionsOf(databaseUrl, rule.id)).toEqual([
      `pending ${down}`,
      `firing ${down}`,
      `resolved ${down}`,
    ]);
    const log = await api.call<{ items: { event: string; status: string; attempt: number }[] }>(
      'GET',
      `/alerts/${firing?.alert.id ?? ''}/deliveries`,
    );
    expect(log.json.items).toMatchObject([
      { event: 'firing', status: 'delivered', attempt: 1 },
      { event: 'resolved', status: 'delivered', attempt: 1 },
    ]);
  }, 240_000);
});

describe('split-brain through the fault proxy', () => {
  let scenario: HaScenario;
  let pair: HaPairBehindProxy;
  let api: Api;

  beforeAll(async () => {
    pair = await startHaPairBehindProxy();
    scenario = await startHaScenario('fleet-split', pair, 2_000);
    api = await openApi(scenario.databaseUrl, 'alerting-split-web');
    await waitFor(
      'the primary serving',
      async () =>
        (await api.web.prisma.clusterNode.count({ where: { clusterId: scenario.clusterId, serving: true } })) === 1,
      60_000,
    );
  }, 240_000);

  afterAll(async () => {
    await api.close();
    await scenario.stop();
  });

  it('fires the built-in critical split-brain rule when the cut link leaves both members active, and resolves it when healed', async () => {
    const { clusterId, databaseUrl } = scenario;
    const rule = await routeBuiltInToListener(api, 'split-brain');
    expect(rule.severity).toBe('critical');
    // Serving one member, the cluster has no split-brain and the rule has nothing to say.
    await pause(DUPLICATE_WINDOW_MS);
    expect(notificationsOf(rule.name)).toEqual([]);

    pair.replicationLink.setMode({ kind: 'cut' });
    await pair.backup.waitUntilActive(90_000);
    expect((await pair.primary.readBrokerAttributes(['Active']))?.Active).toBe(true);
    await waitFor('the firing notification', () => (notificationsOf(rule.name).length > 0 ? true : undefined), 60_000);
    const cluster = await api.web.prisma.cluster.findUniqueOrThrow({ where: { id: clusterId } });
    expect(cluster.splitBrainSince).not.toBeNull();
    await pause(DUPLICATE_WINDOW_MS);
    const [firing] = notificationsOf(rule.name);
    expect(eventsOf(rule.name)).toEqual(['firing cluster']);
    expect(firing).toMatchObject({
      event: 'firing',
      alert: { rule: rule.name, severity: 'critical', clusterId, cluster: 'fleet-split', subject: 'cluster', value: 1 },
    });

    pair.replicationLink.setMode({ kind: 'pass' });
    await pair.backup.restart();
    await pair.backup.waitUntilReplicaInSync(90_000);
    await waitFor(
      'the resolved notification',
      () => (notificationsOf(rule.name).length > 1 ? true : undefined),
      60_000,
    );
    expect((await api.web.prisma.cluster.findUniqueOrThrow({ where: { id: clusterId } })).splitBrainSince).toBeNull();
    await pause(DUPLICATE_WINDOW_MS);
    expect(eventsOf(rule.name)).toEqual(['firing cluster', 'resolved cluster']);
    expect(notificationsOf(rule.name)[1]).toMatchObject({
      event: 'resolved',
      alert: { id: firing?.alert.id, severity: 'critical', state: 'resolved' },
    });
    expect(await transitionsOf(databaseUrl, rule.id)).toEqual(['firing cluster', 'resolved cluster']);
  }, 300_000);
});
