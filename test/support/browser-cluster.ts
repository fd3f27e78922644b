// A one-node cluster registered over the API of Flotilla started as `npm start` does, the way the browser suites
// begin: registration answers 200 with the cluster's id; when the suite needs broker events, the worker's
// notification subscription is waited for (it opens once tier A has seen the node serve).
import type { BrokerNode } from './artemis/index.ts';
import type { ApiSession } from './browser.ts';
import { waitFor } from './native-test-helpers.ts';

export async function registerSingleNodeCluster(
  baseUrl: string,
  api: ApiSession,
  node: BrokerNode,
  name: string,
  options: { untilSubscribed?: boolean } = {},
): Promise<string> {
  const registered = await fetch(`${baseUrl}/api/v1/clusters`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...api.headers },
    body: JSON.stringify({
      name,
      environment: 'staging',
      nodes: [{ managementUrl: node.managementUrl, amqpUrl: node.amqpUrl }],
      credentials: { username: node.user, password: node.password },
    }),
  });
  if (registered.status !== 200)
    throw new Error(`registering ${name}: ${String(registered.status)} ${await registered.text()}`);
  const { clusterId } = (await registered.json()) as { clusterId: string };
  if (options.untilSubscribed)
    await waitFor(
      'the notification subscription (NOTIFICATIONS confirmed)',
      async () => {
        const response = await fetch(`${baseUrl}/api/v1/clusters/${clusterId}`, { headers: api.headers });
        const detail = (await response.json()) as { capabilities: Record<string, string> };
        return detail.capabilities.NOTIFICATIONS === 'AVAILABLE' ? detail : undefined;
      },
      60_000,
    );
  return clusterId;
}
