// Core events for running plugins (spec: "core events … added and removed at runtime"): this web process's stream
// hub tells the plugins listening to a topic (their manifest's coreEvents, handled by api.events.on) of each signal
// and event of it, on any cluster. A plugin listens while it runs here: nothing is registered when it starts or
// removed when it stops, because the observer asks the running plugins at each message. Every web process of every
// instance runs its plugins and so delivers to its own copy of each.
//
// Each plugin has its own queue with one delivery in flight, so a slow or stuck plugin holds up only itself (its
// calls time out like any other). Signals say "this changed" and coalesce per topic and cluster; events (an alert
// transition, a broker event: governed as the stream shows them) queue in order up to a bound, and a plugin that
// falls that far behind loses the oldest and is told how many in the next event it gets (`missed`).
import type { DatabaseBus } from '@/base/db/bus.ts';
import { webStreamOf, type StreamEvent, type StreamSignal } from '@/modules/kernel/stream/index.ts';
import type { RunningPlugin } from './plugin-manager.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('plugins');

/** Events queued for one plugin before the oldest go. */
const CORE_EVENT_QUEUE_BOUND = 500;

export interface CoreEventInput {
  readonly topic: string;
  readonly clusterId: string;
  readonly at: string;
  /** An event's replay position and its data; a signal has neither. */
  readonly id?: string;
  readonly data?: unknown;
  /** Events of this plugin dropped before this one because it fell behind. */
  readonly missed?: number;
}

interface Queued {
  readonly input: CoreEventInput;
  /** Signals of one topic and cluster replace each other while they wait. */
  readonly coalesceKey: string | undefined;
}

/** One plugin's queue: delivers in order, one at a time, through `deliver`. */
export class CoreEventQueue {
  private readonly queue: Queued[] = [];
  private missed = 0;
  private delivering = false;
  private closed = false;

  constructor(
    private readonly deliver: (input: CoreEventInput) => Promise<unknown>,
    private readonly bound = CORE_EVENT_QUEUE_BOUND,
  ) {}

  get size(): number {
    return this.queue.length;
  }

  offer(input: CoreEventInput, coalesceKey?: string): void {
    if (this.closed) return;
    const waiting = coalesceKey === undefined ? -1 : this.queue.findIndex((item) => item.coalesceKey === coalesceKey);
    if (waiting >= 0) this.queue[waiting] = { input, coalesceKey };
    else {
      if (this.queue.length >= this.bound) {
        this.queue.shift();
        this.missed++;
      }
      this.queue.push({ input, coalesceKey });
    }
    void this.drain();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next && !this.closed; next = this.queue.shift()) {
        const input = this.missed > 0 ? { ...next.input, missed: this.missed } : next.input;
        this.missed = 0;
        await this.deliver(input).catch((error: unknown) =>
          log.warn({ err: error, topic: input.topic }, 'a plugin’s core event handler failed'),
        );
      }
    } finally {
      this.delivering = false;
    }
  }
}

const listensTo = (plugin: RunningPlugin, topic: string) =>
  plugin.manifest.coreEvents.some((event) => event.topic === topic);

/**
 * Follows this web process's stream for the plugins `running()` lists; returns the way to stop. A plugin's queue goes
 * with its process (a restarted plugin is a new RunningPlugin, with a new queue).
 */
export function followCoreEvents(bus: DatabaseBus, running: () => readonly RunningPlugin[]): () => void {
  const queues = new WeakMap<RunningPlugin, CoreEventQueue>();
  const queueOf = (plugin: RunningPlugin) => {
    let queue = queues.get(plugin);
    if (!queue) {
      const made = new CoreEventQueue((input) => plugin.process.coreEvent(input.topic, input));
      void plugin.process.exited.then(() => made.close());
      queues.set(plugin, made);
      queue = made;
    }
    return queue;
  };
  const toListeners = (topic: string, offer: (queue: CoreEventQueue) => void) => {
    for (const plugin of running()) if (listensTo(plugin, topic)) offer(queueOf(plugin));
  };
  return webStreamOf(bus).hub.observe({
    wants: (topic) => running().some((plugin) => listensTo(plugin, topic)),
    signal: (signal: StreamSignal) =>
      toListeners(signal.topic, (queue) =>
        queue.offer(
          { topic: signal.topic, clusterId: signal.clusterId, at: signal.ts },
          `${signal.topic} ${signal.clusterId}`,
        ),
      ),
    event: (event: StreamEvent) =>
      toListeners(event.topic, (queue) =>
        queue.offer({
          topic: event.topic,
          clusterId: event.clusterId,
          at: new Date().toISOString(),
          id: event.id,
          data: event.data,
        }),
      ),
  });
}
