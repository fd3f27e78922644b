// Issue 34's chaos on a bulk move: "kill -9 of the worker during a bulk move". In Flotilla a move runs in the WEB
// process (the broker command sequence: the audit row committed PENDING, then one moveMessages call per node); the
// worker runs no move. So the case is kill -9 of the process running the move — the web process — and the
// worker is killed too, to show that is harmless. Flotilla runs as `npm start` runs it, with a broker of its own (a
// suite that kills things keeps its own, ADR 20). Asserted at the broker and in the database:
// (a) no message lost, none doubled: source + target hold N, and the uids across both are exactly the N sent;
// (b) the move's audit row is not left PENDING: the worker's sweep finishes it as INTERRUPTED, saying what is known
//     (ADR 35), within its interval (set short through the settings API, as an operator would);
// (c) the restarted web process serves again; after kill -9 of the worker the scrape resumes and no row is PENDING.
// An e2e file, not a broker one: it starts the app, which needs the production build only the e2e and browser
// projects make (build-global-setup.ts).
import rhea, { type Connection, type EventContext } from 'rhea';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, isAlive, type AppProcess, type ProcessInfo } from '@test/app-process.ts';
import { startSingleNode, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';
import { eventually } from '@test/eventually.ts';
import { createAnycastQueue, messageCount, uniqueName } from '@test/native-test-helpers.ts';
import { httpClient, type RestCall } from '@test/rest-call.ts';
import { signIn } from '@test/sign-in.ts';

const N = 30_000;
const WATCHED = 'chaos.scrape.watched';
const SWEEP_MS = 1_000;
const INTERRUPTED_TEXT =
  'the process running it ended before it finished; the broker may have applied all, part or none of it; ' +
  'per-node detail below is what it reported';

const pool = new AppPool();
let database: TestDatabase;
let broker: Topology;
let node: BrokerNode;
let app: AppProcess;
let api: RestCall;
let clusterId: string;

interface AuditRow {
  readonly id: string;
  readonly outcome: string;
  readonly error: string | null;
  readonly owner: string | null;
  readonly finished_at: Date | null;
}

const auditRows = (where: string, params: unknown[] = []) =>
  queryDatabase<AuditRow>(
    database.url,
    `SELECT id, outcome, error, owner, finished_at FROM audit_event ${where}`,
    params,
  );

function child(entry: 'web-main.mjs' | 'worker-main.mjs'): ProcessInfo {
  const found = app.childRunning(entry);
  if (!found) throw new Error(`no ${entry} process under the supervisor`);
  return found;
}

/** A new process (another pid or start time) running `entry`, once it is there. */
const replacementOf = (entry: 'web-main.mjs' | 'worker-main.mjs', killed: ProcessInfo) =>
  eventually(
    `a new ${entry} process`,
    () => {
      const now = app.childRunning(entry);
      return now && (now.pid !== killed.pid || now.startTime !== killed.startTime) ? now : undefined;
    },
    30_000,
    100,
  );

function connect(): Promise<Connection> {
  const { hostname, port } = new URL(node.amqpUrl);
  const connection = rhea.create_container().connect({
    host: hostname,
    port: Number(port),
    username: node.user,
    password: node.password,
    reconnect: false,
  });
  return new Promise((resolve, reject) => {
    connection.once('connection_open', () => resolve(connection));
    connection.once('connection_error', () => reject(new Error('AMQP connection refused')));
    connection.once('disconnected', () => reject(new Error('AMQP connection lost')));
  });
}

/** N durable messages, each with a unique `uid`, sent over AMQP with many in flight; resolves when all are accepted. */
async function sendMessages(queue: string, count: number): Promise<void> {
  const connection = await connect();
  try {
    await new Promise<void>((resolve, reject) => {
      const sender = connection.open_sender({ target: { address: queue } });
      let sent = 0;
      let accepted = 0;
      const fill = () => {
        while (sent < count && sender.sendable()) {
          sender.send({ durable: true, application_properties: { uid: `m-${String(sent)}` }, body: 'x' });
          sent++;
        }
      };
      sender.on('sendable', fill);
      sender.on('accepted', () => {
        if (++accepted === count) resolve();
      });
      sender.on('rejected', () => reject(new Error(`the broker rejected a message to ${queue}`)));
    });
  } finally {
    connection.close();
  }
}

/** Every message of the queue consumed: the uids in the order received. */
async function drainUids(queue: string, expected: number): Promise<string[]> {
  const uids: string[] = [];
  if (expected === 0) return uids;
  const connection = await connect();
  try {
    await new Promise<void>((resolve) => {
      const receiver = connection.open_receiver({ source: { address: queue }, credit_window: 2_000 });
      receiver.on('message', (context: EventContext) => {
        uids.push(String((context.message?.application_properties as { uid?: unknown } | undefined)?.uid));
        if (uids.length === expected) resolve();
      });
    });
    // One more message than counted would be a duplicate the count missed: none may come within a short wait.
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    connection.close();
  }
  return uids;
}

beforeAll(async () => {
  database = await createTestDatabase();
  broker = await startSingleNode({ maxHeap: '512M' });
  node = broker.nodes[0] as BrokerNode;
  app = await pool.startReady({ env: { DATABASE_URL: database.url, FLOTILLA_INSTANCE_ID: 'chaos-move' } });
  api = httpClient(`${app.baseUrl}/api/v1`, await signIn((request) => fetch(request), app.baseUrl));
  await createAnycastQueue(node, WATCHED);
  // Registered as a user would; the sweep looks every second (an operator's setting, not a test hook).
  const registered = await api<{ clusterId: string }>('POST', '/clusters', {
    name: 'chaos-move',
    environment: 'lab',
    nodes: [{ managementUrl: node.managementUrl, amqpUrl: node.amqpUrl }],
    credentials: { username: node.user, password: node.password },
  });
  expect(registered.status, JSON.stringify(registered.json)).toBeLessThan(300);
  clusterId = registered.json.clusterId;
  for (const [key, value] of [
    ['audit.interrupted-sweep-interval', `${String(SWEEP_MS)}ms`],
    ['scrape.tier-b-interval', '1s'],
  ])
    expect((await api('PUT', `/settings/${key}`, { value })).status).toBe(200);
}, 420_000);

afterAll(async () => {
  await pool.destroyAll();
  await broker.stop();
  await database.drop();
});

describe('kill -9 of the process running a bulk move', () => {
  it('loses and doubles no message, and the audit row ends INTERRUPTED saying what is known', async () => {
    // Queues of this attempt's own, so a retry starts from a full source again.
    const [SOURCE, TARGET] = [uniqueName('chaos.move.source'), uniqueName('chaos.move.target')];
    for (const queue of [SOURCE, TARGET]) await createAnycastQueue(node, queue);
    const started = Date.now();
    await sendMessages(SOURCE, N);
    console.log(`[bulk move kill] ${String(N)} durable messages sent in ${String(Date.now() - started)} ms`);
    await eventually(
      'the scrape listing both queues',
      async () => {
        const grid = await api<{ items: { queueName: string }[] }>('GET', `/clusters/${clusterId}/queues?q=chaos.move`);
        const names = grid.json.items.map((item) => item.queueName);
        return names.includes(SOURCE) && names.includes(TARGET) ? true : undefined;
      },
      60_000,
      250,
    );

    const web = child('web-main.mjs');
    const moving = api('POST', `/clusters/${clusterId}/queues/${SOURCE}/messages/move`, {
      targetQueue: TARGET,
      override: true, // N is over safety.bulk-cap (1,000): the operator confirms it
    }).catch((error: unknown) => error as Error); // its process is killed: no answer comes

    // The row is committed PENDING before the broker call; the kill lands once the broker has started moving.
    const [row] = await eventually(
      'the move PENDING in the audit log, and the broker moving',
      async () => {
        const rows = await auditRows(`WHERE action = 'message.move' AND outcome = 'PENDING' AND target = $1`, [SOURCE]);
        return rows.length === 1 && (await messageCount(node, TARGET)) > 0 ? rows : undefined;
      },
      60_000,
      20,
    );
    const movedAtKill = await messageCount(node, TARGET);
    process.kill(web.pid, 'SIGKILL');
    const killedAt = Date.now();
    expect(row?.owner).toEqual(expect.any(String));

    // (b) within one sweep period (and the slack of two loaded cores), the row is finished as INTERRUPTED.
    const [finished] = await eventually(
      'the row finished by the sweep',
      async () => {
        const rows = await auditRows('WHERE id = $1', [row?.id]);
        return rows[0]?.outcome === 'PENDING' ? undefined : rows;
      },
      SWEEP_MS * 2 + 10_000,
      100,
    );
    const sweptAfterMs = Date.now() - killedAt;
    expect(finished).toMatchObject({ outcome: 'INTERRUPTED', owner: row?.owner });
    expect(finished?.error).toContain(INTERRUPTED_TEXT);
    expect(finished?.finished_at).toBeInstanceOf(Date);

    // The killed web process is restarted by the supervisor and serves again (c).
    await replacementOf('web-main.mjs', web);
    await eventually(
      'the new web process answering',
      async () => {
        const ready = await fetch(`${app.baseUrl}/actuator/health/readiness`).catch(() => undefined);
        return ready?.status === 200 ? true : undefined;
      },
      60_000,
      250,
    );
    expect((await api('GET', '/clusters')).status).toBe(200);
    expect(await moving).toBeInstanceOf(Error);

    // (a) The broker finishes or stops its own move: once the counts stand still, source + target hold exactly N …
    let last = '';
    const counts = await eventually(
      'the counts standing still',
      async () => {
        const now = [await messageCount(node, SOURCE), await messageCount(node, TARGET)] as const;
        const same = JSON.stringify(now) === last;
        last = JSON.stringify(now);
        return same ? now : undefined;
      },
      60_000,
      500,
    );
    console.log(
      `[bulk move kill] ${String(movedAtKill)} moved at the kill; swept ${String(sweptAfterMs)} ms after it; ` +
        `then source ${String(counts[0])}, target ${String(counts[1])}`,
    );
    expect(counts[0] + counts[1]).toBe(N);
    // … and every uid sent is there exactly once.
    const uids = [...(await drainUids(SOURCE, counts[0])), ...(await drainUids(TARGET, counts[1]))];
    expect(uids).toHaveLength(N);
    expect(new Set(uids).size).toBe(N);
    expect(new Set(uids)).toEqual(new Set(Array.from({ length: N }, (_, index) => `m-${String(index)}`)));
  });

  it('kill -9 of the worker: the scrape resumes and no audit row is left PENDING', async () => {
    const worker = child('worker-main.mjs');
    process.kill(worker.pid, 'SIGKILL');
    await eventually('the killed worker gone', () => (isAlive(worker) ? undefined : true), 10_000, 100);
    await replacementOf('worker-main.mjs', worker);

    // The new worker's scrape sees a change made after the kill.
    await sendMessages(WATCHED, 7);
    await eventually(
      'the grid counting the messages sent after the kill',
      async () => {
        const grid = await api<{ items: { queueName: string; messageCount: number | null }[] }>(
          'GET',
          `/clusters/${clusterId}/queues?q=${WATCHED}`,
        );
        return grid.json.items.find((item) => item.queueName === WATCHED)?.messageCount === 7 ? true : undefined;
      },
      60_000,
      250,
    );
    expect(await auditRows(`WHERE outcome = 'PENDING'`)).toEqual([]);
  });
});
