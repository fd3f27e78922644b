// Which change signals a notification drives, and the coalescer that sends at most one signal per topic per
// cluster per interval: a burst of 500 consumers attaching refreshes each screen once, not 500 times, and the last
// change of a burst is never lost (a trailing signal follows at the end of the interval).

const TOPICS_BY_KIND: Readonly<Record<string, readonly string[]>> = {
  CONSUMER_CREATED: ['consumers', 'queues'],
  CONSUMER_CLOSED: ['consumers', 'queues'],
  CONSUMER_SLOW: ['consumers', 'queues'],
  SESSION_CREATED: ['sessions'],
  SESSION_CLOSED: ['sessions'],
  CONNECTION_CREATED: ['connections'],
  CONNECTION_DESTROYED: ['connections'],
  BINDING_ADDED: ['queues'],
  BINDING_REMOVED: ['queues'],
  BINDING_UPDATED: ['queues'],
  ADDRESS_ADDED: ['queues'],
  ADDRESS_REMOVED: ['queues'],
};

export function topicsOfKind(kind: string): readonly string[] {
  return TOPICS_BY_KIND[kind] ?? [];
}

export class SignalCoalescer {
  private readonly lastSent = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly send: (topic: string, clusterId: string) => void,
    private readonly intervalMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  offer(topic: string, clusterId: string): void {
    const key = `${clusterId}\u0000${topic}`;
    if (this.pending.has(key)) return; // a trailing signal is already due
    const wait = (this.lastSent.get(key) ?? -Infinity) + this.intervalMs - this.now();
    if (wait <= 0) {
      this.fire(key, topic, clusterId);
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(key);
      this.fire(key, topic, clusterId);
    }, wait);
    timer.unref();
    this.pending.set(key, timer);
  }

  /** Sends what is due at once (at shutdown). */
  flush(): void {
    for (const [key, timer] of this.pending) {
      clearTimeout(timer);
      const [clusterId = '', topic = ''] = key.split('\u0000');
      this.fire(key, topic, clusterId);
    }
    this.pending.clear();
  }

  private fire(key: string, topic: string, clusterId: string): void {
    this.lastSent.set(key, this.now());
    this.send(topic, clusterId);
  }
}
