// The generated REST client (packages/client, issue 35) against a real Flotilla: the web runtime's REST edge on a
// local HTTP listener, a real PostgreSQL, a cluster and its queues as the scrape leaves them, and an API token made
// through the API as a user makes one. The package's example script runs as a user would run it (a child process,
// the URL and token in its environment) and prints the deepest queues; a typed call of an unknown cluster throws the
// problem Flotilla answered.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clustersList, flotillaClient, FlotillaProblem, queuesList } from '@flotilla/client';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { issueToken, serveOverHttp, type Listener } from '@test/mcp-client.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';

const run = promisify(execFile);
const EXAMPLE = 'packages/client/examples/deepest-queues.ts';

let secured: SecuredRuntime;
let listener: Listener;
let token: string;
let clusterId: string;

/** The example script as a user runs it; its exit code, standard output and standard error. */
async function runExample(args: readonly string[], env: Record<string, string>) {
  // Only what a user's shell would pass: no test runner's variables.
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', ...env };
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', EXAMPLE, ...args], {
      env: childEnv as NodeJS.ProcessEnv,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  listener = await serveOverHttp(secured.rest);
  const { auth } = await secured.signedIn();
  token = await issueToken(secured.rest, auth, 'ci-depth-check');
  const prisma = secured.runtime.prisma;
  clusterId = await insertClusterRow(prisma, { name: 'payments' });
  const fresh = new Date(Date.now() - 1_000);
  const nodeId = await insertScrapedNode(prisma, {
    clusterId,
    brokerNodeId: 'n1',
    brokerName: 'broker-one',
    serving: true,
    sweptAt: fresh,
  });
  await insertScrapedQueues(prisma, { clusterId, nodeId, scrapedAt: fresh }, [
    { queueName: 'orders.in', messageCount: 42, consumerCount: 1 },
    { queueName: 'orders.dlq', messageCount: 7, consumerCount: 0 },
    { queueName: 'audit.log', messageCount: 0, consumerCount: 2 },
  ]);
}, 60_000);

afterAll(async () => {
  await listener.close();
  await secured.close();
});

describe('the generated REST client', () => {
  it('answers typed calls with the token', async () => {
    const client = flotillaClient({ url: listener.url, token });
    const { data: clusters } = await clustersList({ client, throwOnError: true });
    expect(clusters.items.map((cluster) => cluster.name)).toEqual(['payments']);
    const { data: queues } = await queuesList({
      client,
      throwOnError: true,
      path: { clusterId },
      query: { sort: '-messageCount', pageSize: 2 },
    });
    expect(queues.items.map((queue) => [queue.queueName, queue.messageCount])).toEqual([
      ['orders.in', 42],
      ['orders.dlq', 7],
    ]);
  });

  it('throws the problem Flotilla answered, with its status and type', async () => {
    const client = flotillaClient({ url: listener.url, token });
    const refused = await queuesList({
      client,
      throwOnError: true,
      path: { clusterId: '00000000-0000-4000-8000-000000000042' },
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FlotillaProblem);
    expect(refused).toMatchObject({ status: 404, problem: { type: expect.stringContaining('not-found') as string } });
    const anonymous = flotillaClient({ url: listener.url, token: 'as_not-a-token' });
    const denied = await clustersList({ client: anonymous, throwOnError: true }).catch((error: unknown) => error);
    expect(denied).toMatchObject({ status: 401 });
  });

  it('runs the example script: the deepest queues, and exit 1 above the depth it is given', async () => {
    const env = { FLOTILLA_URL: listener.url, FLOTILLA_TOKEN: token };
    const passing = await runExample(['--top', '2', '--fail-above', '100'], env);
    expect(passing.stderr).toBe('');
    expect(passing.code).toBe(0);
    expect(passing.stdout.trim().split('\n')).toEqual([
      'payments\torders.in\t42 messages\t1 consumers',
      'payments\torders.dlq\t7 messages\t0 consumers',
      '1 clusters, deepest queue 42 messages',
    ]);
    expect((await runExample(['--top', '1', '--fail-above', '10'], env)).code).toBe(1);
    const unauthorised = await runExample([], { ...env, FLOTILLA_TOKEN: 'as_not-a-token' });
    expect(unauthorised.code).not.toBe(0);
    expect(unauthorised.stderr).toContain('401');
    expect((await runExample([], { FLOTILLA_URL: listener.url })).code).toBe(2);
  }, 120_000);
});
