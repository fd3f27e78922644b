// The built-in DLQ-growing rule on a real broker with the worker's services running: an address setting sends the
// messages of dlg.# that fail once to dlg.dead; the scrape reads that setting and marks dlg.dead a dead-letter
// queue; messages really die there (a consumer fails them), and the rule installed when the cluster was registered
// fires on dlg.dead with the growth it saw, and not on dlg.decoy, a queue merely named like one that grows too.
// A pooled broker: every address, setting match, rule pattern and search of this suite is under the lease's prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import {
  createAnycastQueue,
  endpointOf,
  messageCount,
  openAckConsumer,
  sendManyMessages,
  waitFor,
} from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';

const broker = leaseSingleNode();
const DEAD = broker.name('dlg.dead');
const ORDERS = broker.name('dlg.orders');
const DECOY = broker.name('dlg.decoy');
/** What the queue list and the alert list are searched by: this suite's dlg. queues only. */
const SEARCH = broker.name('dlg.');
let node: BrokerNode;
let scenario: HaScenario;
let secured: SecuredRuntime;
let call: RestCall;

interface AlertRow {
  subject: string;
  state: string;
  lastValue: number | null;
  rule: string;
}

/** The counters of this suite's queues and of the broker's own DLQ, for a failure to say where messages went. */
async function queueCounters(): Promise<string> {
  const attribute = ['MessageCount', 'MessagesAdded', 'MessagesAcknowledged', 'MessagesKilled', 'MessagesExpired'];
  const read = async (queue: string) => {
    const mbean = `${brokerMbean(node.name)},component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;
    const counters = await jolokia(node, { type: 'read', mbean, attribute }).catch((error: unknown) => String(error));
    return `${queue}: ${JSON.stringify(counters)}`;
  };
  const settings = await jolokia(node, {
    type: 'exec',
    mbean: brokerMbean(node.name),
    operation: 'getAddressSettingsAsJSON(java.lang.String)',
    arguments: [ORDERS],
  }).catch((error: unknown) => String(error));
  return [
    ...(await Promise.all([ORDERS, DEAD, DECOY, 'DLQ'].map(read))),
    `settings at ${ORDERS}: ${String(settings)}`,
  ].join('; ');
}

/** A consumer fails each message of the queue: one delivery attempt, so each dies to dlg.dead. */
async function failEverything(queue: string): Promise<void> {
  const consumer = openAckConsumer(endpointOf(node), {
    source: queue,
    credit: 10,
    onMessage: (_message, settle) => settle.fail(),
  });
  try {
    await waitFor(`every message of ${queue} dead`, async () =>
      (await messageCount(node, queue)) === 0 ? true : undefined,
    );
  } finally {
    await consumer.close();
  }
}

beforeAll(async () => {
  [node] = broker.nodes as [BrokerNode];
  await jolokia(node, {
    type: 'exec',
    mbean: brokerMbean(node.name),
    operation: 'addAddressSettings(java.lang.String,java.lang.String)',
    arguments: [broker.name('dlg.#'), JSON.stringify({ deadLetterAddress: DEAD, maxDeliveryAttempts: 1 })],
  });
  for (const queue of [ORDERS, DEAD, DECOY]) await createAnycastQueue(node, queue);
  scenario = await startHaScenario('dlq-growing', broker, 1_000, { tierB: '1s', tierC: '3s' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'conditions-web' });
  ({ call } = await secured.signedIn());
}, 240_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
});

describe('conditions on a real broker', () => {
  it('fires the built-in DLQ-growing rule when messages really die, on the queue the settings name only', async () => {
    const rules = await call<{ items: { id: string; builtIn: string | null; name: string }[] }>('GET', '/alerts/rules');
    const dlqGrowing = rules.json.items.find((rule) => rule.builtIn === 'dlq-growing');
    expect(dlqGrowing?.name).toBe('DLQ growing (dlq-growing)');
    // Editable like any rule: only this test's queues (the broker's own DLQ stays out of it).
    expect(
      await call('PATCH', `/alerts/rules/${dlqGrowing?.id ?? ''}`, { pattern: broker.name('dlg.*') }),
    ).toMatchObject({
      status: 200,
    });
    await waitFor(
      'dlg.dead marked from the address settings, with samples before the messages die',
      async () => {
        const { json } = await call<{ items: { queueName: string; deadLetter: boolean }[] }>(
          'GET',
          `/clusters/${scenario.clusterId}/queues?q=${SEARCH}`,
        );
        const marks = Object.fromEntries(json.items.map((row) => [row.queueName, row.deadLetter]));
        return marks[DEAD] === true && marks[DECOY] === false ? true : undefined;
      },
      60_000,
    );
    // A few tier-B sweeps of the empty queues, so the window starts before the deaths.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    // Counted from what is there (a retry finds its first attempt's dead), and waited for: the broker moves a dead
    // message and updates the queue's count after the consumer's last refusal, not with it.
    const deadBefore = await messageCount(node, DEAD);
    await sendManyMessages(node, ORDERS, 3);
    await sendManyMessages(node, DECOY, 3);
    await failEverything(ORDERS);
    // At least three: a retry's count may also take the first attempt's last deaths, moved after deadBefore was read.
    await waitFor('three messages dead', async () => (await messageCount(node, DEAD)) >= deadBefore + 3, 60_000).catch(
      async (error: unknown) => {
        // Once, the three never arrived (a first attempt in a clean-clone run): say where the messages went.
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; dead before ${String(deadBefore)}; ${await queueCounters()}`,
        );
      },
    );

    const firing = await waitFor(
      'the DLQ-growing alert firing',
      async () => {
        const { json } = await call<{ items: AlertRow[] }>('GET', `/alerts?view=firing&q=${SEARCH}`);
        // A sweep may land between two deaths: the alert fires on the first, its value follows the later sweeps
        // (on a retry the window may also hold the first attempt's deaths: more than three).
        return json.items.some((alert) => (alert.lastValue ?? 0) >= 3) ? json.items : undefined;
      },
      60_000,
    );
    expect(firing).toMatchObject([{ subject: DEAD, state: 'firing', rule: dlqGrowing?.name }]);
    expect(firing[0]?.lastValue).toBeGreaterThanOrEqual(3);
  }, 150_000);
});
