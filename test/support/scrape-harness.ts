// Test helpers for the scrape on real brokers and PostgreSQL: a cluster saved the way the clusters module saves it
// (password sealed with its cipher), short tier intervals as stored runtime settings, and worker runtimes started
// exactly as worker/main.ts starts them, one per instance id.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openRuntime, type Runtime } from '@/server/runtime/runtime.ts';
import { startWorkerServices } from '../../worker/services.ts';
import { sealPassword } from '../../src/modules/platform/clusters/server/credentials/password-cipher.ts';
import { loadKeyRing } from '@/modules/platform/governance/index.ts';
import type { BrokerNode } from './artemis/index.ts';

/** The key the test process (and processKeys()) use; set before anything reads it. */
const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
process.env.FLOTILLA_SECRET_KEY = TEST_SECRET_KEY;

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function storeSettings(url: string, values: Record<string, string>): Promise<void> {
  await withClient(url, async (client) => {
    for (const [key, value] of Object.entries(values)) {
      await client.query(
        `INSERT INTO flotilla_setting (key, value, scope) VALUES ($1, $2, 'RUNTIME')
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [key, JSON.stringify(value)],
      );
    }
  });
}

export interface SavedCluster {
  readonly clusterId: string;
  /** cluster_node ids in the order of the broker nodes given. */
  readonly nodeIds: string[];
}

export async function saveCluster(url: string, name: string, nodes: readonly BrokerNode[]): Promise<SavedCluster> {
  const [first] = nodes;
  if (!first) throw new Error('a cluster needs a node');
  const clusterId = randomUUID();
  const sealed = sealPassword(loadKeyRing({ FLOTILLA_SECRET_KEY: TEST_SECRET_KEY }), {
    clusterId,
    password: first.password,
  });
  const nodeIds = nodes.map(() => randomUUID());
  await withClient(url, async (client) => {
    await client.query(
      'INSERT INTO cluster (id, name, username, password_cipher, password_key_id) VALUES ($1, $2, $3, $4, $5)',
      [clusterId, name, first.user, sealed.cipher, sealed.keyId],
    );
    for (const [index, node] of nodes.entries()) {
      await client.query(
        `INSERT INTO cluster_node (id, cluster_id, management_url, amqp_url, role) VALUES ($1, $2, $3, $4, 'PRIMARY')`,
        [nodeIds[index], clusterId, node.managementUrl, node.amqpUrl],
      );
    }
  });
  return { clusterId, nodeIds };
}

export interface WorkerInstance {
  readonly instanceId: string;
  readonly runtime: Runtime;
  stop(): Promise<void>;
}

export async function startWorker(url: string, instanceId: string): Promise<WorkerInstance> {
  const runtime = await openRuntime('worker', {
    DATABASE_URL: url,
    FLOTILLA_INSTANCE_ID: instanceId,
    FLOTILLA_DB_POOL_SIZE: '4',
    FLOTILLA_SECRET_KEY: TEST_SECRET_KEY,
  });
  const services = await startWorkerServices(runtime);
  let stopped = false;
  return {
    instanceId,
    runtime,
    async stop() {
      if (stopped) return;
      stopped = true;
      await services.stop();
      await runtime.close();
    },
  };
}

export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
