// The capture consumers of one worker: one client-acknowledge consumer per live tap per serving node. Each message
// becomes a captured row handed to the index writer, and is acknowledged only once the writer's promise says its
// row is committed; when the write fails the message is released (back to the capture queue, no failed-delivery
// count) so nothing is lost while the broker still holds it. Credit bounds what is in flight per consumer.
// A consumer closes by draining: what arrives from then on is released unwritten, what is being written is waited for
// and acknowledged, and only then does the link close. Closing the link at once would give the broker back messages
// whose rows the writer still commits, and the cluster's next owner would index them a second time (a graceful stop,
// a cluster handed over to another worker).
import { openAckConsumer, type AckConsumer, type NativeMessage } from '@/modules/platform/broker/index.ts';
import type { CapturedMessage } from '../index/stored-message.ts';
import type { LiveTap } from './capture-reconciler.ts';
import { capturedMessageOf } from './captured-message.ts';
import { logger } from '@/base/log/log.ts';

const captureLog = logger('sql');

/** Messages in flight per consumer: enough to fill the writer's batches, bounded so a stuck write stops the flow. */
const CREDIT = 500;
/** How long a closing consumer waits for its rows in flight (a writer that cannot reach the database releases them). */
const DRAIN_TIMEOUT_MS = 5_000;

export interface CaptureSink {
  accept(messages: readonly CapturedMessage[]): Promise<void>;
}

interface Running {
  readonly tap: LiveTap;
  readonly consumer: AckConsumer;
  readonly drain: Drain;
}

interface Drain {
  /** Writes handed to the sink and not yet settled. */
  readonly inFlight: Set<Promise<void>>;
  isClosing: boolean;
}

const keyOf = (tap: Pick<LiveTap, 'nodeId' | 'queue'>) => `${tap.nodeId}|${tap.queue}`;

export class CaptureConsumers {
  private readonly running = new Map<string, Running>();
  private readonly closing = new Set<Promise<void>>();

  /**
   * `onTapLost`: a consumer's link was refused or lost (its queue deleted, or missing when it re-attached after a
   * broker restart): the worker runs a pass soon, so the tap is whole again before the job's next interval.
   */
  constructor(
    private readonly sink: CaptureSink,
    private readonly onTapLost: () => void = () => undefined,
    private readonly log: (message: string) => void = (message) => captureLog.error(message),
  ) {}

  /** Keys of the consumers open now (`<nodeId>|<queue>`). */
  keys(): string[] {
    return [...this.running.keys()];
  }

  /** The clusters with a consumer open now. */
  clusters(): Set<string> {
    return new Set([...this.running.values()].map((entry) => entry.tap.clusterId));
  }

  /**
   * Opens a consumer for every live tap of the cluster not yet drained, closes those of taps no longer live, and
   * opens again those of taps the pass (re)installed: after a broker restart the queue was gone, and a consumer
   * refused on it re-attaches only after its next reconnect.
   */
  async sync(clusterId: string, live: readonly LiveTap[]): Promise<void> {
    const wanted = new Map(live.map((tap) => [keyOf(tap), tap]));
    for (const [key, entry] of this.running)
      if (entry.tap.clusterId === clusterId && (!wanted.has(key) || wanted.get(key)?.installed)) await this.close(key);
    for (const [key, tap] of wanted) if (!this.running.has(key)) this.open(key, tap);
  }

  /** Closes the consumer of one tap, its writes finished first (before the pass destroys the tap's queue). */
  async closeTap(nodeId: string, queue: string): Promise<void> {
    await this.close(keyOf({ nodeId, queue }));
  }

  async closeCluster(clusterId: string): Promise<void> {
    for (const [key, entry] of this.running) if (entry.tap.clusterId === clusterId) await this.close(key);
  }

  /** Closes every consumer, and waits for those already closing (a cluster given up just before). */
  async closeAll(): Promise<void> {
    await Promise.all([...[...this.running.keys()].map((key) => this.close(key)), ...this.closing]);
  }

  private open(key: string, tap: LiveTap): void {
    let endpoint;
    try {
      endpoint = tap.native();
    } catch (error) {
      this.log(`no native endpoint for ${tap.nodeName}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const drain: Drain = { inFlight: new Set(), isClosing: false };
    const consumer = openAckConsumer(endpoint, {
      source: tap.queue,
      credit: CREDIT,
      onMessage: (message: NativeMessage, settlement) => {
        if (drain.isClosing) {
          settlement.release();
          return;
        }
        let row: CapturedMessage;
        try {
          row = capturedMessageOf(tap, message, new Date());
        } catch (error) {
          this.log(`unreadable message on ${tap.queue}: ${String(error)}`);
          settlement.release();
          return;
        }
        const written = this.sink.accept([row]).then(
          () => settlement.accept(),
          () => settlement.release(),
        );
        drain.inFlight.add(written);
        void written.finally(() => drain.inFlight.delete(written));
      },
      // A tap's queue gone under its consumer (an operator deleting it; missing at a re-attach after a broker
      // restart) is put right by the worker's next pass: a warning, not an error. A pass removing a tap closes its
      // consumer first (closeTap), so a removed subscription says nothing here.
      onError: (error, sourceGone) => {
        if (sourceGone)
          captureLog.warn(
            { node: tap.nodeName, queue: tap.queue, condition: error.condition },
            `the capture queue ${tap.queue} on ${tap.nodeName} is gone (${error.condition}); the next capture pass puts the tap right`,
          );
        else this.log(error.message);
        this.onTapLost();
      },
    });
    this.running.set(key, { tap, consumer, drain });
  }

  private async close(key: string): Promise<void> {
    const entry = this.running.get(key);
    if (!entry) return;
    this.running.delete(key);
    const closed = this.drainAndClose(entry);
    this.closing.add(closed);
    try {
      await closed;
    } finally {
      this.closing.delete(closed);
    }
  }

  private async drainAndClose({ consumer, drain }: Running): Promise<void> {
    drain.isClosing = true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    });
    await Promise.race([Promise.allSettled([...drain.inFlight]), timedOut]);
    clearTimeout(timer);
    await consumer.close();
  }
}
