// One AMQP connection to one broker node, kept open by our own reconnect loop (rhea's is off: it would
// retry the advertised hosts and knows nothing of our backoff). Users register `onOpen` to (re)attach
// their links after every reconnect and `onDown` to learn why the connection went away.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import rhea, { type Connection, type EventContext } from 'rhea';
import { reconnectDelay } from '@/base/backoff.ts';
import { closeConnection } from './bounded-close.ts';
import { classifyConnectionFailure, type ConnectionFailure } from './connection-failure.ts';
import type { NativeOptions } from './native-options.ts';
import { rheaConnectOptions, type NativeEndpoint } from './native-endpoint.ts';

export type NativeConnectionStatus = 'idle' | 'connecting' | 'open' | 'down' | 'closed';

const LATE_EVENTS = ['error', 'protocol_error', 'disconnected', 'connection_close', 'connection_error'] as const;

type OpenListener = (connection: Connection) => void;
type DownListener = (failure: ConnectionFailure) => void;

/** rhea keeps its socket untyped; a connected socket with no AMQP answer points at the acceptor's protocols. */
function isSocketConnected(connection: Connection): boolean {
  const socket = (connection as unknown as { socket?: Socket }).socket;
  return socket?.readyState === 'open';
}

export class NativeConnection {
  readonly endpoint: NativeEndpoint;
  readonly #options: () => NativeOptions;
  // A container per node keeps rhea's fallback event dispatch from mixing nodes.
  readonly #container = rhea.create_container({ id: `flotilla-${randomUUID()}` });
  readonly #openListeners = new Set<OpenListener>();
  readonly #downListeners = new Set<DownListener>();
  #status: NativeConnectionStatus = 'idle';
  #current: Connection | undefined;
  #attemptConnection: Connection | undefined;
  #failedAttempts = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #lastFailure: ConnectionFailure | undefined;

  constructor(endpoint: NativeEndpoint, options: () => NativeOptions) {
    this.endpoint = endpoint;
    this.#options = options;
  }

  get status(): NativeConnectionStatus {
    return this.#status;
  }

  get lastFailure(): ConnectionFailure | undefined {
    return this.#lastFailure;
  }

  /** The open rhea connection, or undefined while (re)connecting. */
  get current(): Connection | undefined {
    return this.#status === 'open' ? this.#current : undefined;
  }

  start(): void {
    if (this.#status === 'idle') this.#connect();
  }

  onOpen(listener: OpenListener): () => void {
    this.#openListeners.add(listener);
    if (this.current) listener(this.current);
    return () => this.#openListeners.delete(listener);
  }

  onDown(listener: DownListener): () => void {
    this.#downListeners.add(listener);
    return () => this.#downListeners.delete(listener);
  }

  /** Resolves with the open connection, or rejects with the last failure once `timeoutMs` passed. */
  whenOpen(timeoutMs: number): Promise<Connection> {
    this.start();
    const open = this.current;
    if (open) return Promise.resolve(open);
    if (this.#status === 'closed') return Promise.reject(new Error('native connection is closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        const why = this.#lastFailure?.message ?? 'no answer';
        reject(
          new Error(`no AMQP connection to ${this.endpoint.host}:${this.endpoint.port} within ${timeoutMs} ms: ${why}`),
        );
      }, timeoutMs);
      const unsubscribe = this.onOpen((connection) => {
        clearTimeout(timer);
        queueMicrotask(unsubscribe);
        resolve(connection);
      });
    });
  }

  /** Stops reconnecting and closes the connection; bounded by the close timeout. */
  async close(): Promise<void> {
    if (this.#status === 'closed') return;
    this.#status = 'closed';
    clearTimeout(this.#retryTimer);
    const connection = this.#current ?? this.#attemptConnection;
    this.#current = undefined;
    this.#attemptConnection = undefined;
    if (connection) await closeConnection(connection, this.#options().closeTimeoutMs);
  }

  #connect(): void {
    this.#status = 'connecting';
    const options = this.#options();
    const connection = this.#container.connect(rheaConnectOptions(this.endpoint, this.#container.id));
    this.#attemptConnection = connection;
    let hasOpened = false;
    // Any AMQP-level answer (a SASL outcome, a Close) proves the port speaks AMQP; silence before the first
    // frame is how Artemis turns away a protocol its acceptor does not list.
    let hasBrokerAnswered = false;
    let failure: ConnectionFailure | undefined;
    let isFinished = false;

    const openTimer = setTimeout(() => {
      failure =
        isSocketConnected(connection) && !hasBrokerAnswered
          ? {
              kind: 'protocol-not-accepted',
              message: `the port accepted the TCP connection but sent no AMQP within ${options.connectTimeoutMs} ms; its acceptor probably does not list AMQP in protocols (or the broker is hung)`,
            }
          : { kind: 'timeout', message: `the AMQP handshake did not finish within ${options.connectTimeoutMs} ms` };
      finish(undefined);
    }, options.connectTimeoutMs);

    const finish = (error: unknown) => {
      if (isFinished) return;
      isFinished = true;
      clearTimeout(openTimer);
      failure ??= classifyConnectionFailure(error, hasOpened, hasBrokerAnswered);
      connection.removeAllListeners();
      // Late events of a finished attempt must not fall through to rhea's container (an unhandled 'error'
      // would throw there, an unheard 'disconnected' logs a warning).
      for (const event of LATE_EVENTS) connection.on(event, () => undefined);
      void closeConnection(connection, options.closeTimeoutMs);
      if (this.#status === 'closed') return;
      this.#current = undefined;
      this.#attemptConnection = undefined;
      this.#status = 'down';
      this.#lastFailure = failure;
      for (const listener of this.#downListeners) listener(failure);
      this.#scheduleReconnect();
    };

    connection.on('connection_open', () => {
      clearTimeout(openTimer);
      hasOpened = true;
      if (this.#status === 'closed') return;
      this.#failedAttempts = 0;
      this.#current = connection;
      this.#attemptConnection = undefined;
      this.#status = 'open';
      this.#lastFailure = undefined;
      for (const listener of this.#openListeners) listener(connection);
    });
    connection.on('connection_error', (context: EventContext) => {
      hasBrokerAnswered = true;
      failure ??= classifyConnectionFailure(context.connection.error ?? context.error, hasOpened, true);
    });
    connection.on('connection_close', (context: EventContext) => finish(context.connection.error));
    connection.on('disconnected', (context: EventContext) => finish(context.error));
    connection.on('error', (error: unknown) => finish(error));
    connection.on('protocol_error', (error: unknown) => finish(error));
  }

  #scheduleReconnect(): void {
    const { reconnectInitialDelayMs, reconnectMaxDelayMs } = this.#options();
    const delay = reconnectDelay(
      { initialDelayMs: reconnectInitialDelayMs, maxDelayMs: reconnectMaxDelayMs },
      this.#failedAttempts,
    );
    this.#failedAttempts += 1;
    this.#retryTimer = setTimeout(() => {
      if (this.#status === 'down') this.#connect();
    }, delay);
    this.#retryTimer.unref();
  }
}
