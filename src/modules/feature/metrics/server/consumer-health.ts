// One verdict per queue saying why a backlog is (not) draining (spec: Consumer health verdicts). Pure: the inputs
// are the scrape's totals and window aggregates and the broker's CONSUMER_SLOW notifications; the same function
// serves the API, the screen and the queue panel, so they always agree. The conditions are in docs/metrics.md.
import type { Verdict } from '@/base/consumer-verdicts.ts';
import type { QueueHealthInput } from '@/modules/platform/scrape/read/index.ts';

export interface HealthSettings {
  readonly windowMs: number;
  /** Fewer samples than this in the window: too little to judge. */
  readonly minSamples: number;
  /** Depth change over the window, as a share of the depth at its start, that counts as growing or shrinking. */
  readonly trendShare: number;
}

export interface SlowConsumer {
  readonly at: string;
  readonly consumerId: string | null;
  readonly node: string | null;
}

export interface QueueHealth {
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly verdict: Verdict;
  /** What the verdict rests on. */
  readonly evidence: {
    readonly windowMs: number;
    readonly samples: number;
    readonly depth: number;
    readonly depthAtStart: number | null;
    readonly depthAtEnd: number | null;
    readonly inRate: number | null;
    readonly outRate: number | null;
    readonly delivering: number;
    readonly consumers: number;
    readonly paused: boolean;
    readonly stale: boolean;
    readonly slowConsumer: SlowConsumer | null;
  };
  /** What to do next, in words. */
  readonly advice: string;
}

const ADVICE: Record<Verdict, string> = {
  INSUFFICIENT_DATA:
    'Too few samples in the window to judge (a new queue, or a node the scrape cannot reach). Wait for a few scrape sweeps.',
  PAUSED: 'The queue is paused: nothing is delivered until it is resumed.',
  NO_CONSUMERS:
    'Messages are waiting and no consumer is attached. Start the consuming application or check why it left.',
  BROKER_SLOW:
    'The broker reported a slow consumer (CONSUMER_SLOW): a consumer takes messages slower than the address policy allows. Look at that consumer’s application.',
  STALLED:
    'Messages are out for delivery but none were acknowledged in the window: the consumers hold them without acknowledging (a hung handler, a missing ack, a transaction left open).',
  STARVED:
    'Consumers are attached and messages wait, but nothing is being delivered: check the consumers’ selectors, their credit or prefetch, and whether they are connected to the node holding the messages.',
  FALLING_BEHIND:
    'Messages arrive faster than they are acknowledged and the backlog grows: add consumers or make them faster.',
  DRAINING: 'The backlog is shrinking: consumers take more than arrives.',
  HEALTHY: 'Consumers keep up with what arrives.',
};

const growing = (input: QueueHealthInput, settings: HealthSettings) =>
  input.depthAtStart !== null &&
  input.depthAtEnd !== null &&
  input.depthAtEnd - input.depthAtStart > Math.max(1, input.depthAtStart * settings.trendShare);

const shrinking = (input: QueueHealthInput, settings: HealthSettings) =>
  input.depthAtStart !== null &&
  input.depthAtEnd !== null &&
  input.depthAtStart - input.depthAtEnd > Math.max(1, input.depthAtStart * settings.trendShare);

/** The ordered ladder; the first condition that holds wins, and a CONSUMER_SLOW outranks them all. */
export function verdictOf(input: QueueHealthInput, slow: SlowConsumer | undefined, settings: HealthSettings): Verdict {
  if (slow) return 'BROKER_SLOW';
  if (input.samples < settings.minSamples || input.inRate === null || input.outRate === null)
    return 'INSUFFICIENT_DATA';
  if (input.paused) return 'PAUSED';
  if (input.consumers === 0 && input.depth > 0) return 'NO_CONSUMERS';
  if (input.consumers > 0 && input.delivering > 0 && input.outRate === 0) return 'STALLED';
  if (input.consumers > 0 && input.depth > 0 && input.delivering === 0 && input.outRate === 0) return 'STARVED';
  if (growing(input, settings) && input.inRate > input.outRate) return 'FALLING_BEHIND';
  if (input.depth > 0 && (shrinking(input, settings) || input.outRate > input.inRate)) return 'DRAINING';
  return 'HEALTHY';
}

export function evaluateHealth(
  inputs: readonly QueueHealthInput[],
  slowByQueue: ReadonlyMap<string, SlowConsumer>,
  settings: HealthSettings,
): QueueHealth[] {
  return inputs.map((input) => {
    const slow = slowByQueue.get(input.queueName);
    const verdict = verdictOf(input, slow, settings);
    return {
      address: input.address,
      queueName: input.queueName,
      routingType: input.routingType,
      verdict,
      evidence: {
        windowMs: settings.windowMs,
        samples: input.samples,
        depth: input.depth,
        depthAtStart: input.depthAtStart,
        depthAtEnd: input.depthAtEnd,
        inRate: input.inRate,
        outRate: input.outRate,
        delivering: input.delivering,
        consumers: input.consumers,
        paused: input.paused,
        stale: input.stale,
        slowConsumer: slow ?? null,
      },
      advice: ADVICE[verdict],
    };
  });
}
