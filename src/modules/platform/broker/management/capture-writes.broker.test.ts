// The capture tap's management operations on a real broker (a leased node): the tap's divert copies the source
// address into a non-durable ring queue whose address settings drop, never move; new bounds taken in place; listing
// diverts, the security read, and removal leaving nothing behind. The tap's name is outside the lease's prefix (flotilla.capture.…),
// so the suite removes it itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import { createAnycastQueue, messageCount, sendDurableMessages, waitFor } from '@test/native-test-helpers.ts';
import { ManagementClient } from './management-client.ts';
import { captureWrites, listDiverts, readCaptureSecurity, readTapShape, type TapSpec } from './capture-writes.ts';

const broker = leaseSingleNode();
const [node] = broker.nodes;
if (!node) throw new Error('the lease has a node');
const source = broker.name('orders');
const tap: TapSpec = {
  queue: `flotilla.capture.test.${broker.prefix}orders.t1`,
  divert: `flotilla.capture.test.${broker.prefix}orders.t1.divert`,
  sourceAddress: source,
  ringSize: 50,
  expiryDelayMs: 60_000,
};
let client: ManagementClient;

beforeAll(async () => {
  client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  await createAnycastQueue(node, source);
});

afterAll(async () => {
  await captureWrites.removeTap(client, tap).catch(() => undefined);
  client.close();
  await broker.stop();
});

describe('capture tap operations', () => {
  it('install a non-exclusive divert into a non-durable ring queue that copies every message', async () => {
    await captureWrites.installTap(client, tap, false);
    const diverts = await listDiverts(client);
    expect(diverts.find((divert) => divert.name === tap.divert)).toEqual({
      name: tap.divert,
      address: source,
      forwardingAddress: tap.queue,
      exclusive: false,
      filter: null,
    });
    expect(await readTapShape(client, tap.queue)).toEqual({ ringSize: 50, expiryDelayMs: 60_000 });
    const queueMbean = `${brokerMbean(node.name)},component=addresses,address="${tap.queue}",subcomponent=queues,routing-type="anycast",queue="${tap.queue}"`;
    expect(await jolokia(node, { type: 'read', mbean: queueMbean, attribute: 'Durable' })).toBe(false);
    expect(await jolokia(node, { type: 'read', mbean: queueMbean, attribute: 'RingSize' })).toBe(50);
    // Counted from what is there: a retry finds the first attempt's messages in both queues.
    const [copiesBefore, sourceBefore] = [await messageCount(node, tap.queue), await messageCount(node, source)];
    await sendDurableMessages(node, source, 3);
    await waitFor('three copies in the tap', async () => (await messageCount(node, tap.queue)) === copiesBefore + 3);
    // Non-exclusive: the source keeps its messages (its count follows the send's acceptance, not with it).
    await waitFor('the source keeping all three', async () => (await messageCount(node, source)) === sourceBefore + 3);
  });

  it('give the capture address settings that drop rather than move', async () => {
    const settings = JSON.parse(
      (await jolokia(node, {
        type: 'exec',
        mbean: brokerMbean(node.name),
        operation: 'getAddressSettingsAsJSON(java.lang.String)',
        arguments: [tap.queue],
      })) as string,
    ) as Record<string, unknown>;
    expect(settings).toMatchObject({
      addressFullMessagePolicy: 'DROP',
      expiryDelay: 60_000,
      autoCreateExpiryResources: false,
      defaultRingSize: 50,
    });
    expect(settings.expiryAddress ?? '').toBe('');
    expect(settings.deadLetterAddress ?? '').toBe('');
  });

  it('are idempotent: installing again changes nothing', async () => {
    await captureWrites.installTap(client, tap, true);
    expect((await listDiverts(client)).filter((divert) => divert.name === tap.divert)).toHaveLength(1);
  });

  it('take new bounds in place: ring size and expiry delay change, the divert and the copies stay', async () => {
    const before = await messageCount(node, tap.queue);
    await captureWrites.reshapeTap(client, { ...tap, ringSize: 80, expiryDelayMs: 120_000 });
    expect(await readTapShape(client, tap.queue)).toEqual({ ringSize: 80, expiryDelayMs: 120_000 });
    expect((await listDiverts(client)).filter((divert) => divert.name === tap.divert)).toHaveLength(1);
    expect(await messageCount(node, tap.queue)).toBe(before);
    await captureWrites.reshapeTap(client, tap);
    expect(await readTapShape(client, tap.queue)).toEqual({ ringSize: 50, expiryDelayMs: 60_000 });
  });

  it('read whether security is on and the roles of both addresses', async () => {
    const security = await readCaptureSecurity(client, source, tap.queue);
    expect(security.securityEnabled).toBe(true);
    expect(security.sourceRoles.map((role) => role.name)).toContain('amq');
    expect(security.captureRoles.find((role) => role.name === 'amq')).toMatchObject({ consume: true, browse: true });
  });

  it('remove the divert, the queue and the settings; removing again is no error', async () => {
    await captureWrites.removeTap(client, tap);
    expect((await listDiverts(client)).some((divert) => divert.name === tap.divert)).toBe(false);
    expect(await readTapShape(client, tap.queue)).toBeUndefined();
    await captureWrites.removeTap(client, tap);
  });
});
