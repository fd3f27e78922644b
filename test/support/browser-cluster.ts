// A one-node cluster registered over the API of Flotilla started as `npm start` does, the way the browser suites
// begin: registration answers 200 with the cluster's id; when the suite needs broker events, the worker's
// notification subscription is waited for (it opens once tier A has seen the node serve). Beside it, the other API
// steps those suites share: changing a setting, and waiting for a queue to be scraped.
import type { BrokerNode } from './artemis/index.ts';
import { signInOverApi, type ApiSession, type SharedConsole } from './browser.ts';
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

/**
 * Removes a cluster over the API, as an operator would: a file of the shared console (ADR 37) leaves no cluster for
 * the console's worker to go on scraping after it. Anything but 200 throws with the answer.
 */
function removeClusterOverApi(baseUrl: string, api: ApiSession, clusterId: string): Promise<void> {
  return callOrThrow(baseUrl, api, 'DELETE', `/clusters/${clusterId}`, `removing ${clusterId}`);
}

/** One REST call of the test's own; anything but 200 throws with `what` and the answer. */
async function callOrThrow(
  baseUrl: string,
  api: ApiSession,
  method: 'PUT' | 'DELETE',
  path: string,
  what: string,
  body?: unknown,
): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: body === undefined ? api.headers : { 'Content-Type': 'application/json', ...api.headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status !== 200) throw new Error(`${what}: ${String(response.status)} ${await response.text()}`);
  await response.body?.cancel();
}

/**
 * A shared-console file's end (ADR 37): the cluster it registered removed, the settings it changed reset to their
 * defaults, then its browser closed. A failed removal still closes the browser, and fails the file after.
 */
export async function leaveSharedConsole(
  session: SharedConsole | undefined,
  made: { readonly clusterId?: string; readonly settings?: readonly string[] },
): Promise<void> {
  if (!session) return;
  try {
    const api = await signInOverApi(session.app.baseUrl);
    if (made.clusterId) await removeClusterOverApi(session.app.baseUrl, api, made.clusterId);
    for (const key of made.settings ?? [])
      await callOrThrow(session.app.baseUrl, api, 'DELETE', `/settings/${key}`, `resetting ${key}`);
  } finally {
    await session.close();
  }
}

/** Changes a runtime setting over the API, as an admin would; anything but 200 throws with the answer. */
export function putSettingOverApi(baseUrl: string, api: ApiSession, key: string, value: unknown): Promise<void> {
  return callOrThrow(baseUrl, api, 'PUT', `/settings/${key}`, `setting ${key}`, { value });
}

/** Waits until the queue's page answers 200: the scrape has listed it (tier B). */
export async function waitForQueueScraped(
  baseUrl: string,
  api: ApiSession,
  clusterId: string,
  queue: string,
): Promise<void> {
  await waitFor(
    `${queue} scraped`,
    async () => {
      const response = await fetch(`${baseUrl}/api/v1/clusters/${clusterId}/queues/${encodeURIComponent(queue)}`, {
        headers: api.headers,
      });
      await response.body?.cancel();
      return response.status === 200 ? true : undefined;
    },
    60_000,
  );
}
