// The database bus between processes and instances: PostgreSQL LISTEN/NOTIFY on one dedicated connection.
// A lost connection is re-established with capped backoff; `onReconnect` lets listeners re-read state they may
// have missed while it was down (NOTIFY is not queued for absent listeners).
import pg from 'pg';
import { logger } from '@/base/log/log.ts';

const log = logger('bus');

type BusHandler = (payload: string) => void;

export interface DatabaseBus {
  /** Returns the way to stop listening (a service that stops takes its handlers with it). */
  listen(channel: string, handler: BusHandler): () => void;
  notify(channel: string, payload: string): Promise<void>;
  onReconnect(handler: () => void): () => void;
  /** Resolves once the first LISTEN connection is up, so nothing published after start-up is missed. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_BACKOFF_MS = 10_000;

export function createDatabaseBus(
  connectionString: string,
  publishPool: pg.Pool,
  applicationName: string,
): DatabaseBus {
  const handlers = new Map<string, Set<BusHandler>>();
  const reconnectHandlers = new Set<() => void>();
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  // One statement at a time on the bus connection: services start together and LISTEN at once, and pg refuses
  // (a deprecation today, an error in pg 9) a query sent while another runs on the same client.
  let statements: Promise<void> = Promise.resolve();
  const runOnBus = (sql: string) => {
    const target = client;
    if (!target) return;
    statements = statements
      .then(() => target.query(sql))
      .then(
        () => undefined,
        (error: unknown) => log.error({ err: error, sql }, 'a bus statement failed'),
      );
  };
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async (): Promise<void> => {
    const candidate = new pg.Client({ connectionString, application_name: `${applicationName}-bus` });
    candidate.on('error', () => scheduleReconnect(candidate));
    candidate.on('end', () => scheduleReconnect(candidate));
    candidate.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? '');
        } catch (error) {
          log.error({ err: error, channel: message.channel }, 'a bus handler failed');
        }
      }
    });
    try {
      await candidate.connect();
      for (const channel of handlers.keys()) await candidate.query(`LISTEN ${channel}`);
    } catch (error) {
      log.warn({ err: error }, 'cannot listen; reconnecting');
      scheduleReconnect(candidate);
      return;
    }
    if (closed) return void candidate.end().catch(() => undefined);
    const isReconnect = attempt > 0 || client !== undefined;
    client = candidate;
    attempt = 0;
    markReady();
    if (isReconnect) for (const handler of reconnectHandlers) handler();
  };

  const scheduleReconnect = (failed: pg.Client) => {
    if (closed || retryTimer || (client && client !== failed)) return;
    client = undefined;
    failed.end().catch(() => undefined);
    const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt++) * (0.5 + Math.random() / 2);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delay);
  };

  void connect();

  return {
    listen(channel, handler) {
      if (!CHANNEL_PATTERN.test(channel)) throw new Error(`Invalid bus channel name: ${channel}`);
      const isNew = !handlers.has(channel);
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      if (isNew) runOnBus(`LISTEN ${channel}`);
      return () => {
        set.delete(handler);
        if (set.size > 0 || handlers.get(channel) !== set) return;
        handlers.delete(channel);
        runOnBus(`UNLISTEN ${channel}`);
      };
    },
    async notify(channel, payload) {
      await publishPool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    onReconnect(handler) {
      reconnectHandlers.add(handler);
      return () => void reconnectHandlers.delete(handler);
    },
    ready: () => readyPromise,
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
