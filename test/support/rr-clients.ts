// Real AMQP request-reply clients for broker tests (plain rhea, not Flotilla's native client): a responder that answers
// requests on an anycast queue (slowly, or dropping every n-th), a requester that sends requests one at a time and
// measures each reply's latency, with a shared reply queue or a dynamic (temporary) one of its own, an orphan reply with
// no request behind it, and a requester in a process of its own that a test can SIGKILL. Each helper opens its own
// connection to one broker on loopback; closing it (or the process dying) is what the broker sees.
//
// Correlation: a reply carries the request's correlation_id when it had one, else the request's message_id (the
// JMS convention). The "key" of a request is that value as text.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import rhea, {
  type Connection,
  type Delivery,
  type EventContext,
  type Message,
  type Receiver,
  type Sender,
  type Source,
} from 'rhea';
import { closeConnection } from '../../src/modules/platform/broker/native/bounded-close.ts';
import { lettersOnlyId } from './letters-id.ts';
import type { RequesterProcessArgs } from './rr-requester-process.ts';

/** One broker's AMQP acceptor, on loopback only. */
export interface RrBroker {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
}

export interface ResponderOptions {
  /** The anycast queue the requests arrive on. */
  readonly requestAddress: string;
  /** Wait before answering each request (default 0): the request stays delivering, unacknowledged, meanwhile. */
  readonly delayMs?: number;
  /** Answer nothing to the n-th, 2n-th, … request: accept it and record its key in `dropped`. */
  readonly dropEvery?: number;
  /** Accept each request as soon as it arrives, before the delay and the reply (default: after the reply settled). */
  readonly acceptBeforeReply?: boolean;
  /**
   * Accept each request this long after its reply settled (default 0), as a listener container does that sends the
   * reply inside the listener: the requester may have its answer, and be gone, before the request is acknowledged.
   * stop() waits for an accept still due.
   */
  readonly acceptAfterReplyMs?: number;
}

export interface Responder {
  /** Closes the responder's connection (a request it held unaccepted goes back to the queue); rejects if it failed. */
  stop(): Promise<void>;
  /** Requests finished so far: answered or dropped. */
  readonly handled: number;
  /** The keys of the dropped requests, in order. */
  readonly dropped: string[];
}

export interface RequesterOptions {
  /** The anycast queue to send the requests to. */
  readonly requestAddress: string;
  /** A shared reply queue (anycast); absent: a dynamic (temporary) reply queue of this requester's reply link. */
  readonly replyAddress?: string;
  readonly count: number;
  /** How long to wait for each reply before counting it lost and sending the next request. */
  readonly timeoutMs: number;
  /** 'correlation-id': each request carries a fresh `corr-<letters>`; 'message-id': none, replies echo the message id. */
  readonly correlation: 'correlation-id' | 'message-id';
  readonly ttlMs?: number;
  /**
   * Hold each reply this long before accepting it (it stays delivering on the reply queue meanwhile): a slow requester,
   * whose replies a sampler browsing every second can see. Latency is still taken when the reply arrives.
   */
  readonly settleDelayMs?: number;
}

export interface RequestPair {
  /** The request's correlation_id, or its message_id when it had none: what its reply's correlation_id must be. */
  readonly key: string;
  /** Epoch ms at send (the request's creation_time). */
  readonly sentAt: number;
  /** Reply arrival − send, in ms (fractional); null: no reply within timeoutMs. */
  readonly latencyMs: number | null;
}

export interface RequesterRun {
  /** The reply address the requests carried: the shared one, or the one the broker assigned the dynamic source. */
  readonly replyAddress: string;
  readonly pairs: RequestPair[];
}

export interface RequesterProcess {
  readonly pid: number;
  /** The address the broker assigned the process's temporary reply queue; its requests are on the broker by then. */
  readonly replyAddress: Promise<string>;
  /** SIGKILL: the broker sees the socket close at once (and drops the temporary queue). */
  kill(): void;
}

const OPEN_TIMEOUT_MS = 15_000;
const SETTLE_TIMEOUT_MS = 15_000;
const CLOSE_TIMEOUT_MS = 2_000;
const PROCESS_READY_TIMEOUT_MS = 60_000;
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const REQUESTER_PROCESS = path.join(import.meta.dirname, 'rr-requester-process.ts');
const OUTCOMES = ['accepted', 'rejected', 'released', 'modified'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** The AMQP side of a harness node (test/support/artemis), for these helpers. */
export function rrBrokerOf(node: {
  readonly amqpPort: number;
  readonly user: string;
  readonly password: string;
}): RrBroker {
  return { host: '127.0.0.1', port: node.amqpPort, username: node.user, password: node.password };
}

function assertLoopback(host: string): void {
  if (!/^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|::1)$/.test(host))
    throw new Error(`${host} is not a loopback address: these clients talk to local test brokers only`);
}

/** A message id or correlation id as text: rhea gives strings as strings, numbers as numbers, binary and uuids as Buffers. */
function idText(id: unknown): string | undefined {
  if (id === undefined || id === null) return undefined;
  if (typeof id === 'string') return id;
  if (typeof id === 'number' || typeof id === 'bigint') return id.toString();
  if (Buffer.isBuffer(id)) return id.toString('hex');
  return JSON.stringify(id);
}

function errorText(error: unknown): string {
  if (error === undefined || error === null) return 'no detail';
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && 'condition' in error) {
    const { condition, description } = error as { condition?: unknown; description?: unknown };
    return `${JSON.stringify(condition)}: ${JSON.stringify(description ?? '')}`;
  }
  return JSON.stringify(error);
}

/**
 * Waits for something `subscribe` reports, at most `timeoutMs` (then `onTimeout`'s value, or a rejection) and never
 * past the client's connection closing. `subscribe` answers its own unsubscribe.
 */
function waitUntil<T>(
  what: string,
  signal: AbortSignal,
  timeoutMs: number,
  subscribe: (resolve: (value: T) => void, reject: (error: Error) => void) => () => void,
  onTimeout?: () => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error(`${what}: the connection is closed`));
      return;
    }
    let unsubscribe = () => undefined as unknown;
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      unsubscribe();
      settle();
    };
    const onAbort = () => finish(() => reject(new Error(`${what}: the connection closed`)));
    const timer = setTimeout(
      () =>
        finish(() => (onTimeout ? resolve(onTimeout()) : reject(new Error(`${what}: nothing within ${timeoutMs} ms`)))),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort);
    unsubscribe = subscribe(
      (value) => finish(() => resolve(value)),
      (error) => finish(() => reject(error)),
    );
  });
}

interface Client {
  readonly connection: Connection;
  /** Aborted once the connection closes, by close() or by the broker. */
  readonly signal: AbortSignal;
  close(): Promise<void>;
}

async function openClient(broker: RrBroker, role: string): Promise<Client> {
  assertLoopback(broker.host);
  const container = rhea.create_container({ id: `rr-${role}-${randomUUID()}` });
  // Errors of links and sessions without listeners of their own end up here; an unheard 'error' would throw.
  container.on('error', () => undefined);
  const connection = container.connect({
    host: broker.host,
    port: broker.port,
    username: broker.username,
    password: broker.password,
    reconnect: false,
    idle_time_out: 30_000,
  });
  const closed = new AbortController();
  // Heard, so rhea does not print a warning for it.
  connection.on('disconnected', () => closed.abort());
  connection.on('connection_close', () => closed.abort());
  const close = async () => {
    closed.abort();
    await closeConnection(connection, CLOSE_TIMEOUT_MS);
  };
  try {
    await waitUntil<undefined>(
      `AMQP connection to ${broker.host}:${broker.port}`,
      new AbortController().signal,
      OPEN_TIMEOUT_MS,
      (resolve, reject) => {
        const onOpen = () => resolve(undefined);
        const onError = (context: EventContext) =>
          reject(
            new Error(
              `AMQP connection to ${broker.host}:${broker.port}: ${errorText(context.connection.error ?? context.error)}`,
            ),
          );
        connection.once('connection_open', onOpen);
        connection.once('connection_error', onError);
        connection.once('disconnected', onError);
        return () => {
          connection.removeListener('connection_open', onOpen);
          connection.removeListener('connection_error', onError);
          connection.removeListener('disconnected', onError);
        };
      },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { connection, signal: closed.signal, close };
}

/** Resolves once the broker attached the link; rejects with the broker's reason when it refused. */
function attached<T extends Receiver | Sender>(client: Client, link: T, what: string): Promise<T> {
  const [opened, failed] = link.is_receiver() ? ['receiver_open', 'receiver_error'] : ['sender_open', 'sender_error'];
  return waitUntil<T>(what, client.signal, OPEN_TIMEOUT_MS, (resolve, reject) => {
    const onOpen = () => {
      // A refused attach comes back with no terminus (whatever rhea's types say), its detach and error right behind.
      const terminus = (link.is_receiver() ? link.source : link.target) as object | undefined;
      if (terminus) resolve(link);
    };
    const onError = () => reject(new Error(`${what} refused: ${errorText(link.error)}`));
    link.on(opened, onOpen);
    link.on(failed, onError);
    return () => {
      link.removeListener(opened, onOpen);
      link.removeListener(failed, onError);
    };
  });
}

/** Sends once the link has credit and waits for the broker to settle the delivery; rejects unless it accepted. */
async function sendSettled(client: Client, sender: Sender, message: Message, what: string): Promise<void> {
  if (!sender.sendable())
    await waitUntil<undefined>(`${what}: credit`, client.signal, SETTLE_TIMEOUT_MS, (resolve) => {
      const onSendable = () => resolve(undefined);
      sender.once('sendable', onSendable);
      return () => sender.removeListener('sendable', onSendable);
    });
  const delivery: Delivery = sender.send(message);
  const outcome = await waitUntil<Outcome>(what, client.signal, SETTLE_TIMEOUT_MS, (resolve) => {
    const listeners = OUTCOMES.map((name) => {
      const listener = (context: EventContext) => {
        if (context.delivery === delivery) resolve(name);
      };
      sender.on(name, listener);
      return [name, listener] as const;
    });
    return () => {
      for (const [name, listener] of listeners) sender.removeListener(name, listener);
    };
  });
  if (outcome !== 'accepted') throw new Error(`${what}: the broker settled it ${outcome}`);
}

/**
 * Answers the requests on `requestAddress`, one at a time (credit 1, nothing auto-accepted): after `delayMs`, a reply
 * to the request's reply_to through an anonymous sender (`to` set on each message) with the request's correlation id
 * (or its message id), creation_time at reply and body `{ reply: <request body> }`; the request is accepted once the
 * broker has settled the reply. Every `dropEvery`-th request is accepted unanswered. A request with no reply_to is
 * accepted unanswered too (and counted handled, not dropped).
 */
export async function startResponder(broker: RrBroker, options: ResponderOptions): Promise<Responder> {
  const { requestAddress, delayMs = 0, dropEvery, acceptBeforeReply = false, acceptAfterReplyMs = 0 } = options;
  if (dropEvery !== undefined && (!Number.isInteger(dropEvery) || dropEvery < 1))
    throw new RangeError('dropEvery must be an integer ≥ 1');
  const client = await openClient(broker, 'responder');
  const { connection } = client;
  let received = 0;
  let handled = 0;
  const dropped: string[] = [];
  let isStopped = false;
  let failure: Error | undefined;
  const pendingSleeps = new Set<() => void>();
  let acceptDue: Promise<void> = Promise.resolve();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) {
        resolve();
        return;
      }
      const wake = () => {
        clearTimeout(timer);
        pendingSleeps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      pendingSleeps.add(wake);
    });

  try {
    const replies = await attached(client, connection.open_sender({ target: {} }), 'anonymous reply sender');
    replies.on('sender_error', () => undefined);
    const requests = connection.open_receiver({
      source: { address: requestAddress, capabilities: ['queue'] },
      autoaccept: false,
      credit_window: 0,
    });

    const handle = async (request: Message, delivery: Delivery) => {
      received += 1;
      const ordinal = received;
      if (acceptBeforeReply) delivery.accept();
      await sleep(delayMs);
      if (isStopped) return;
      const key = idText(request.correlation_id) ?? idText(request.message_id) ?? `#${ordinal}`;
      if (dropEvery !== undefined && ordinal % dropEvery === 0) {
        dropped.push(key);
      } else if (request.reply_to) {
        await sendSettled(
          client,
          replies,
          {
            to: request.reply_to,
            correlation_id: request.correlation_id ?? request.message_id,
            creation_time: new Date(),
            body: { reply: request.body as unknown },
          },
          `reply to ${key}`,
        );
      }
      if (!acceptBeforeReply && acceptAfterReplyMs > 0) {
        acceptDue = new Promise((resolve) => setTimeout(resolve, acceptAfterReplyMs));
        await acceptDue;
      }
      if (!acceptBeforeReply) delivery.accept();
      handled += 1;
      requests.add_credit(1);
    };

    let chain = Promise.resolve();
    requests.on('message', (context: EventContext) => {
      const { message, delivery } = context;
      if (!message || !delivery) return;
      chain = chain
        .then(() => handle(message, delivery))
        .catch((error: unknown) => {
          if (!isStopped) failure ??= error instanceof Error ? error : new Error(String(error));
        });
    });
    requests.on('receiver_error', () => {
      if (!isStopped) failure ??= new Error(`request receiver on ${requestAddress}: ${errorText(requests.error)}`);
    });
    await attached(client, requests, `request receiver on ${requestAddress}`);
    requests.add_credit(1);
  } catch (error) {
    await client.close();
    throw error;
  }

  return {
    get handled() {
      return handled;
    },
    dropped,
    stop: async () => {
      if (isStopped) return;
      isStopped = true;
      for (const wake of pendingSleeps) wake();
      await acceptDue;
      await client.close();
      if (failure) throw failure;
    },
  };
}

/**
 * Sends `count` requests to `requestAddress`, each after the previous one's reply (or its timeout), and measures each
 * reply's latency. Replies are matched on correlation_id and accepted; a late reply to an earlier request is accepted
 * and ignored. The connection is closed when it resolves (a dynamic reply queue goes with it).
 */
export async function runRequester(broker: RrBroker, options: RequesterOptions): Promise<RequesterRun> {
  const { requestAddress, count, timeoutMs, correlation, ttlMs } = options;
  const client = await openClient(broker, 'requester');
  const { connection } = client;
  try {
    const waiting = new Map<string, (arrivedAt: number) => void>();
    const source: Source = options.replyAddress
      ? { address: options.replyAddress, capabilities: ['queue'] }
      : ({ dynamic: true } as Source);
    const settleDelayMs = options.settleDelayMs ?? 0;
    const replies = connection.open_receiver({ source, autoaccept: settleDelayMs === 0 });
    replies.on('message', (context: EventContext) => {
      const arrivedAt = performance.now();
      const key = idText(context.message?.correlation_id);
      if (key !== undefined) waiting.get(key)?.(arrivedAt);
      if (settleDelayMs > 0) setTimeout(() => context.delivery?.accept(), settleDelayMs);
    });
    replies.on('receiver_error', () => undefined);
    await attached(client, replies, `reply receiver on ${options.replyAddress ?? 'a dynamic source'}`);
    const replyAddress = options.replyAddress ?? replies.source.address;
    if (!replyAddress) throw new Error('the broker assigned no address to the dynamic reply source');

    const sender = await attached(
      client,
      connection.open_sender({ target: { address: requestAddress, capabilities: ['queue'] } }),
      `request sender to ${requestAddress}`,
    );
    sender.on('sender_error', () => undefined);

    const pairs: RequestPair[] = [];
    for (let index = 0; index < count; index++) {
      const messageId = lettersOnlyId('req');
      const correlationId = correlation === 'correlation-id' ? lettersOnlyId('corr') : undefined;
      const key = correlationId ?? messageId;
      const reply = waitUntil<number | null>(
        `reply to ${key}`,
        client.signal,
        timeoutMs,
        (resolve) => {
          waiting.set(key, resolve);
          return () => waiting.delete(key);
        },
        () => null,
      );
      const createdAt = new Date();
      const started = performance.now();
      const accepted = sendSettled(
        client,
        sender,
        {
          message_id: messageId,
          ...(correlationId === undefined ? {} : { correlation_id: correlationId }),
          reply_to: replyAddress,
          creation_time: createdAt,
          ...(ttlMs === undefined ? {} : { ttl: ttlMs }),
          body: { request: index },
        },
        `request ${key}`,
      );
      const [arrivedAt] = await Promise.all([reply, accepted]);
      pairs.push({ key, sentAt: createdAt.getTime(), latencyMs: arrivedAt === null ? null : arrivedAt - started });
    }
    // Held replies are accepted before the connection goes (closing would put them back on the reply queue).
    if (settleDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, settleDelayMs + 100));
    return { replyAddress, pairs };
  } finally {
    await client.close();
  }
}

/** One reply-shaped message to `replyAddress` (through an anonymous sender, as a responder sends) with no request. */
export async function sendOrphanReply(
  broker: RrBroker,
  options: { readonly replyAddress: string; readonly correlationId: string },
): Promise<void> {
  const client = await openClient(broker, 'orphan');
  try {
    const sender = await attached(client, client.connection.open_sender({ target: {} }), 'anonymous sender');
    await sendSettled(
      client,
      sender,
      {
        to: options.replyAddress,
        correlation_id: options.correlationId,
        creation_time: new Date(),
        body: { reply: null },
      },
      `orphan reply ${options.correlationId}`,
    );
  } finally {
    await client.close();
  }
}

/**
 * A requester in a child process (rr-requester-process.ts): a temporary reply queue, `count` requests to
 * `requestAddress` replying to it, then it waits until killed. It is killed when this process exits, and it exits by
 * itself when this process dies (its standard input closes).
 */
export function spawnRequesterProcess(
  broker: RrBroker,
  options: { readonly requestAddress: string; readonly count: number },
): RequesterProcess {
  assertLoopback(broker.host);
  const args: RequesterProcessArgs = { ...broker, requestAddress: options.requestAddress, count: options.count };
  const child = spawn(process.execPath, ['--import', 'tsx', REQUESTER_PROCESS, JSON.stringify(args)], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));

  const replyAddress = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`the requester process printed no reply address within ${PROCESS_READY_TIMEOUT_MS} ms`));
    }, PROCESS_READY_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const printed = JSON.parse(line) as { replyAddress?: unknown };
      if (typeof printed.replyAddress === 'string') resolve(printed.replyAddress);
      else reject(new Error(`the requester process printed ${line}`));
    });
    // After a resolve these are no-ops.
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the requester process exited (${String(code ?? signal)}) before its reply address: ${stderr.join('').trim()}`,
        ),
      );
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  // A test that never awaits it (or kills the process first) must not see an unhandled rejection.
  replyAddress.catch(() => undefined);
  if (child.pid === undefined) throw new Error('the requester process did not start');
  return { pid: child.pid, replyAddress, kill };
}

/**
 * runRequester in a child process: the latencies it measures are not delayed by whatever else runs in the test
 * process (a test that hosts Flotilla's worker keeps its event loop busy). Resolves to the child's RequesterRun.
 */
export function runRequesterApart(broker: RrBroker, options: RequesterOptions): Promise<RequesterRun> {
  assertLoopback(broker.host);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'rr-requester-run.ts'), JSON.stringify({ broker, options })],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', kill);
  const output: string[] = [];
  const errors: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  return new Promise<RequesterRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      process.removeListener('exit', kill);
      const line = output.join('').trim().split('\n').pop() ?? '';
      if (code === 0 && line) resolve(JSON.parse(line) as RequesterRun);
      else reject(new Error(`the requester process exited (${String(code)}): ${errors.join('').trim()}`));
    });
  });
}
