// The capture consumers of one worker: one client-acknowledge consumer per live tap per serving node. Each message
// becomes a captured row handed to the index writer, and is acknowledged only once the writer's promise says its
// row is committed; when the write fails the message is released (back to the capture queue, no failed-delivery
// count) so nothing is lost while the broker still holds it. Credit bounds what is in flight per consumer.
import { openAckConsumer, type AckConsumer, type NativeMessage } from '@/modules/platform/broker/index.ts';
import type { CapturedMessage } from '../index/stored-message.ts';
import type { LiveTap } from './capture-reconciler.ts';
import { capturedMessageOf } from './captured-message.ts';
import { logger } from '@/base/log/log.ts';

const captureLog = logger('sql');

/** Messages in flight per consumer: enough to fill the writer's batches, bounded so a stuck write stops the flow. */
const CREDIT = 500;

export interface CaptureSink {
  accept(messages: readonly CapturedMessage[]): Promise<void>;
}

interface Running {
  readonly tap: LiveTap;
  readonly consumer: AckConsumer;
}

const keyOf = (tap: Pick<LiveTap, 'nodeId' | 'queue'>) => `${tap.nodeId}|${tap.queue}`;

export class CaptureConsumers {
  private readonly running = new Map<string, Running>();

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

  async closeCluster(clusterId: string): Promise<void> {
    for (const [key, entry] of this.running) if (entry.tap.clusterId === clusterId) await this.close(key);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((key) => this.close(key)));
  }

  private open(key: string, tap: LiveTap): void {
    let endpoint;
    try {
      endpoint = tap.native();
    } catch (error) {
      this.log(`no native endpoint for ${tap.nodeName}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const consumer = openAckConsumer(endpoint, {
      source: tap.queue,
      credit: CREDIT,
      onMessage: (message: NativeMessage, settlement) => {
        let row: CapturedMessage;
        try {
          row = capturedMessageOf(tap, message, new Date());
        } catch (error) {
          this.log(`unreadable message on ${tap.queue}: ${String(error)}`);
          settlement.release();
          return;
        }
        this.sink.accept([row]).then(
          () => settlement.accept(),
          () => settlement.release(),
        );
      },
      onError: (error) => {
        this.log(error.message);
        this.onTapLost();
      },
    });
    this.running.set(key, { tap, consumer });
  }

  private async close(key: string): Promise<void> {
    const entry = this.running.get(key);
    this.running.delete(key);
    await entry?.consumer.close();
  }
}
