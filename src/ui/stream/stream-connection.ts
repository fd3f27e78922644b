// One stream connection: reads the server-sent events of /api/v1/stream through fetch, reconnects forever with
// capped, jittered backoff, and treats a silence longer than the keep-alive (plus slack) as a failure.
// Framework-free so the React provider stays small; see stream-provider.tsx.
import { reconnectDelay, type BackoffPolicy } from '@/base/backoff.ts';

/** 1 s doubling to 15 s: a console comes back quickly after a restart without hammering the server. */
const STREAM_BACKOFF: BackoffPolicy = { initialDelayMs: 1_000, maxDelayMs: 15_000 };
import { SseParser, type SseMessage } from './sse-parser.ts';

export type StreamState = 'connecting' | 'connected' | 'down';

export interface StreamStatus {
  readonly state: StreamState;
  /** Consecutive failures since the last successful connection. */
  readonly failures: number;
  /** When down: when the next attempt starts (epoch ms). */
  readonly retryAt?: number;
}

export interface StreamSignal {
  readonly topic: string;
  readonly clusterId: string;
  readonly ts: string;
}

export interface StreamConnectionOptions {
  readonly clusterId: string;
  readonly topics: readonly string[];
  readonly onStatus: (status: StreamStatus) => void;
  readonly onSignal: (signal: StreamSignal) => void;
  /** Called after a reconnect: signals may have been missed while down, so live views refetch. */
  readonly onResumed: () => void;
  readonly backoff?: BackoffPolicy;
  /** Where the API lives; the console leaves it out (same origin), tests name their server. */
  readonly origin?: string;
}

/** The server's default `stream.keep-alive`; the `ready` event tells the real one. */
const DEFAULT_KEEP_ALIVE_MS = 20_000;
const keepAliveDeadline = (keepAliveMs: number) => keepAliveMs * 1.5 + 2_000;

interface ReadyPayload {
  readonly keepAliveMs?: number;
}

export class StreamConnection {
  private closed = false;
  private failures = 0;
  private hasConnectedBefore = false;
  private abort: AbortController | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private keepAliveMs = DEFAULT_KEEP_ALIVE_MS;
  /** The `events` topic carries ids; sending the last one back lets the server replay what was missed. */
  private lastEventId: string | undefined;

  constructor(private readonly options: StreamConnectionOptions) {}

  start(): void {
    void this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.watchdog);
    this.abort?.abort();
  }

  /** A call, not a field read: `close()` may have run while this connection awaited. */
  private isClosed(): boolean {
    return this.closed;
  }

  private url(): string {
    const query = new URLSearchParams({ clusterId: this.options.clusterId, topics: this.options.topics.join(',') });
    return `${this.options.origin ?? ''}/api/v1/stream?${query.toString()}`;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    this.options.onStatus({ state: this.failures === 0 ? 'connecting' : 'down', failures: this.failures });
    const abort = new AbortController();
    this.abort = abort;
    let instruction: number | undefined;
    try {
      this.armWatchdog(abort);
      const headers: Record<string, string> = this.lastEventId ? { 'Last-Event-ID': this.lastEventId } : {};
      const response = await fetch(this.url(), { cache: 'no-store', headers, signal: abort.signal });
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const message of parser.feed(value)) {
          instruction = this.handle(message) ?? instruction;
          if (instruction !== undefined) break;
        }
        if (instruction !== undefined) break;
        // Any bytes, `:ping` included, prove the connection alive; armed after `ready` told the period.
        this.armWatchdog(abort);
      }
      abort.abort();
    } catch {
      // fetch refused, non-200, aborted by the watchdog: all count as a failure below
    }
    clearTimeout(this.watchdog);
    if (this.isClosed()) return;
    if (instruction !== undefined) {
      // The server asked us to come back (fell behind, or shutting down): not a failure of ours.
      this.schedule(instruction, 'connecting');
      return;
    }
    this.failures += 1;
    this.schedule(reconnectDelay(this.options.backoff ?? STREAM_BACKOFF, this.failures - 1), 'down');
  }

  /** Returns a reconnect delay when the server instructed a reconnect. */
  private handle(message: SseMessage): number | undefined {
    if (message.id !== undefined) this.lastEventId = message.id;
    if (message.event === 'ready') {
      const ready = JSON.parse(message.data) as ReadyPayload;
      this.keepAliveMs = ready.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
      const resumed = this.hasConnectedBefore;
      this.failures = 0;
      this.hasConnectedBefore = true;
      this.options.onStatus({ state: 'connected', failures: 0 });
      if (resumed) this.options.onResumed();
      return undefined;
    }
    if (message.event === 'reconnect') {
      const { retryMs } = JSON.parse(message.data || '{}') as { retryMs?: number };
      return retryMs ?? 1_000;
    }
    const payload = JSON.parse(message.data) as Partial<StreamSignal>;
    if (typeof payload.topic === 'string') this.options.onSignal(payload as StreamSignal);
    // An event of an event topic (a BrokerEvent on `events`, or the notice that a replay was cut short): the views
    // of that topic follow it like a signal.
    else if (message.event) {
      const topic = message.event === 'replay-truncated' ? 'events' : message.event;
      this.options.onSignal({ topic, clusterId: this.options.clusterId, ts: new Date().toISOString() });
    }
    return undefined;
  }

  private armWatchdog(abort: AbortController): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => abort.abort(), keepAliveDeadline(this.keepAliveMs));
  }

  private schedule(delayMs: number, state: StreamState): void {
    this.options.onStatus({ state, failures: this.failures, retryAt: Date.now() + delayMs });
    this.retryTimer = setTimeout(() => void this.connect(), delayMs);
  }
}
