// Links to an alert on a real database: with alerting.console-url set, the notification a real webhook listener
// receives carries the link to the alert in the console (`/alerts?open=<id>`, which the Alerts screen opens as the
// alert's drawer), and the alerts list answers that one alert by id; an address that is not http(s) is refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHookListener, type HookListener } from '@test/hook-listener.ts';
import { insertOneNodeCluster } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import type { RestCall } from '@test/rest-call.ts';
import { ALERTING_SETTINGS } from './alerting.settings.ts';
import { deliverDue } from './deliverer.ts';
import { evaluateCluster } from './evaluator.ts';

let secured: SecuredRuntime;
let call: RestCall;
let clusterId: string;
let hook: HookListener;

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call } = await secured.signedIn());
  // The test's listeners are on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', secured.runtime.settings);
  ({ clusterId } = await insertOneNodeCluster(secured.runtime.prisma, 'links', [
    { queueName: 'linked', messageCount: 500 },
  ]));
  hook = await startHookListener();
});

afterAll(async () => {
  await hook.close();
  await secured.close();
});

describe('a link to an alert', () => {
  it('is refused as the console address unless it is an http(s) address', async () => {
    for (const value of ['javascript:alert(1)', 'https://flotilla.example.com/?x=1', 'flotilla.example.com'])
      expect(await call('PUT', '/settings/alerting.console-url', { value })).toMatchObject({
        status: 400,
        json: { type: 'invalid-setting' },
      });
    expect(secured.runtime.settings.string(ALERTING_SETTINGS.consoleUrl)).toBe('');
  });

  it('rides in every notification once the console address is set, and opens that alert', async () => {
    expect(
      await call('PUT', '/settings/alerting.console-url', { value: 'https://flotilla.example.com/console/' }),
    ).toMatchObject({ status: 200 });
    await vi.waitFor(() =>
      expect(secured.runtime.settings.string(ALERTING_SETTINGS.consoleUrl)).toBe(
        'https://flotilla.example.com/console/',
      ),
    );
    const channel = await call('POST', '/alerts/channels', {
      name: 'links',
      config: { kind: 'webhook', url: hook.url },
    });
    expect(channel.status).toBe(200);
    expect(
      await call('POST', '/alerts/rules', {
        name: 'Linked backlog',
        condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
        pattern: 'linked',
        forSeconds: 0,
        channelIds: [channel.json.id],
      }),
    ).toMatchObject({ status: 200 });
    const deps = {
      db: secured.runtime.db,
      prisma: secured.runtime.prisma,
      registry: secured.runtime.registry,
      settings: secured.runtime.settings,
    };
    expect(await evaluateCluster(deps, clusterId)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    await deliverDue(deps);
    const alert = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { clusterId, subject: 'linked' } });
    expect(hook.received.map((request) => JSON.parse(request.body) as unknown)).toMatchObject([
      {
        event: 'firing',
        url: `https://flotilla.example.com/console/alerts?open=${alert.id}`,
        alert: { id: alert.id, subject: 'linked' },
      },
    ]);
    // What the Alerts screen reads for `?open=<id>`: that one alert, whatever the page.
    const one = await call('GET', `/alerts?view=all&id=${alert.id}`);
    expect(one.json).toMatchObject({ total: 1, items: [{ id: alert.id, subject: 'linked', state: 'firing' }] });
  });
});
