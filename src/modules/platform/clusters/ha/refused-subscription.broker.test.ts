// A broker whose security settings keep Flotilla's user off the notification address: the serving node's
// subscription is refused, and the web process sees it — the `subscriptions` indicator DEGRADED with the reason and
// the security-setting snippet, the NOTIFICATIONS capability UNAVAILABLE with the same snippet — while management
// (and so tier A and the serving node) works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode } from '@test/artemis/index.ts';
import { healthReport } from '@/server/http/health.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';

// More specific than the default `#`, so it wins for activemq.notifications: nobody the broker knows may consume.
const closeNotifications = (xml: string) =>
  xml.replace(
    '<security-settings>',
    `<security-settings>
         <security-setting match="activemq.notifications">
            <permission type="consume" roles="nobody"/>
         </security-setting>`,
  );

let scenario: HaScenario;

beforeAll(async () => {
  const topology = await startSingleNode({ name: 'closed1', brokerXmlEdits: closeNotifications });
  scenario = await startHaScenario('closed-notifications', topology, 2_000);
});

afterAll(() => scenario.stop());

describe('a refused notification subscription', () => {
  it('shows in the subscriptions indicator and makes NOTIFICATIONS UNAVAILABLE with the snippet', async () => {
    const { runtimes, clusterId } = scenario;
    const row = await waitFor(
      'a refused subscription row',
      async () => {
        const found = await runtimes.web.prisma.clusterNodeSubscription.findFirst({ where: { clusterId } });
        return found?.state === 'refused' ? found : undefined;
      },
      30_000,
    );
    expect(row.cause).toBe('permission');
    expect(row.snippet).toContain('<security-setting match="activemq.notifications">');
    const [node] = await runtimes.web.prisma.clusterNode.findMany({ where: { clusterId } });
    expect(node?.serving).toBe(true);

    const capability = await waitFor('NOTIFICATIONS UNAVAILABLE', async () => {
      const found = await runtimes.web.prisma.clusterCapability.findUnique({
        where: { clusterId_capability: { clusterId, capability: 'NOTIFICATIONS' } },
      });
      return found?.value === 'UNAVAILABLE' ? found : undefined;
    });
    expect(capability.detail).toMatch(/^closed1: the broker refused the notification subscription/);
    expect(capability.snippet).toBe(row.snippet);

    const health = await healthReport(runtimes.web);
    expect(health.components.subscriptions).toMatchObject({
      status: 'DEGRADED',
      details: {
        notEstablished: 1,
        nodes: [{ cluster: 'closed-notifications', node: 'closed1', state: 'not-established', cause: 'permission' }],
      },
    });
    expect(JSON.stringify(health.components.subscriptions)).toContain('security-setting match');
    expect(scenario.signals).toContain('health');
  });
});
