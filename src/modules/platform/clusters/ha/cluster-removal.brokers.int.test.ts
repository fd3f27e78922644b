// Removing a cluster ends what the worker held for it: once an admin removes it over REST, its notification
// subscription is dropped and its pooled native connection closed, so the broker lists no AMQP connection of
// Flotilla's (the connection was left open before, and retried for ever once the broker went away).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode, type BrokerNode } from '../../../../../test/support/artemis/index.ts';
import { startHaScenario, type HaScenario } from '../../../../../test/support/ha-test-kit.ts';
import { brokerMbean, jolokiaExec } from '../../../../../test/support/jolokia.ts';
import { waitFor } from '../../../../../test/support/native-test-helpers.ts';
import { callRest } from '../../../../../test/support/rest-call.ts';
import { signIn, TEST_ADMIN_ENV } from '../../../../../test/support/sign-in.ts';
import { ensureFirstAdmin, syncBuiltInRoles } from '@/modules/kernel/security/index.ts';
import { createRestHandler } from '@/server/http/rest.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';

let scenario: HaScenario;
let node: BrokerNode;
let web: WebRuntime;

/** The AMQP connections the broker holds (Flotilla's native client is the only AMQP user here). */
async function amqpConnections(): Promise<number> {
  const listed = (await jolokiaExec(node, brokerMbean(node.name), 'listConnectionsAsJSON()', [])) as string;
  const connections = JSON.parse(listed) as { implementation?: string }[];
  return connections.filter((connection) => connection.implementation === 'ActiveMQProtonRemotingConnection').length;
}

beforeAll(async () => {
  const topology = await startSingleNode({ name: 'removed1' });
  node = topology.nodes[0] as BrokerNode;
  scenario = await startHaScenario('removed', topology, 1_000);
  web = await openWebRuntime({ DATABASE_URL: scenario.databaseUrl, FLOTILLA_INSTANCE_ID: 'removal-web' });
  await syncBuiltInRoles(web.prisma, web.registry.permissionCatalogue());
  await ensureFirstAdmin(web.prisma, TEST_ADMIN_ENV);
});

afterAll(async () => {
  await web.close();
  await scenario.stop();
});

describe('removing a cluster', () => {
  it('closes its subscription and its native connection in the worker: the broker lists none of ours', async () => {
    await waitFor('the notification subscription’s AMQP connection', async () =>
      (await amqpConnections()) > 0 ? true : undefined,
    );

    const rest = createRestHandler(() => Promise.resolve(web));
    const auth = await signIn(rest, 'http://127.0.0.1');
    const removed = await callRest(rest, auth, 'DELETE', `/clusters/${scenario.clusterId}`);
    expect(removed.status).toBe(200);

    await waitFor(
      'no AMQP connection of Flotilla’s on the broker',
      async () => ((await amqpConnections()) === 0 ? true : undefined),
      20_000,
    );
  });
});
