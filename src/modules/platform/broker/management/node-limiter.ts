// Every management call to one broker node passes through that node's limiter: at most N calls in flight and at
// most R call starts per second. One limiter per node, so a slow or dead node only makes its own callers wait.
// The time a call waited here is measured, because "Flotilla is queueing" and "the broker is slow" need different
// fixes; the health indicator shows it.
import type { ManagementLimits } from './management.settings.ts';

export interface LimiterStats {
  readonly active: number;
  readonly queued: number;
  readonly lastWaitMs: number;
  /** Exponentially weighted average of recent waits. */
  readonly averageWaitMs: number;
  readonly maxWaitMs: number;
}

const AVERAGE_WEIGHT = 0.2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class NodeLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStartAt = 0;
  private lastWaitMs = 0;
  private averageWaitMs = 0;
  private maxWaitMs = 0;

  constructor(private limits: Pick<ManagementLimits, 'maxConcurrentCalls' | 'maxCallsPerSecond'>) {}

  /** New limits apply to the next call that starts (settings are runtime-tunable). */
  configure(limits: Pick<ManagementLimits, 'maxConcurrentCalls' | 'maxCallsPerSecond'>): void {
    this.limits = limits;
    this.wakeWaiters();
  }

  async run<T>(call: () => Promise<T>): Promise<{ value: T; waitedMs: number }> {
    const queuedAt = performance.now();
    await this.takeSlot();
    try {
      await this.keepRate();
      const waitedMs = performance.now() - queuedAt;
      this.recordWait(waitedMs);
      return { value: await call(), waitedMs };
    } finally {
      this.active--;
      this.wakeWaiters();
    }
  }

  stats(): LimiterStats {
    return {
      active: this.active,
      queued: this.waiting.length,
      lastWaitMs: this.lastWaitMs,
      averageWaitMs: this.averageWaitMs,
      maxWaitMs: this.maxWaitMs,
    };
  }

  private takeSlot(): Promise<void> {
    if (this.active < this.limits.maxConcurrentCalls && this.waiting.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.active++;
        resolve();
      }),
    );
  }

  private wakeWaiters(): void {
    while (this.active < this.limits.maxConcurrentCalls && this.waiting.length > 0) this.waiting.shift()?.();
  }

  // Start times are spaced 1/R apart: simple, and it never lets a burst through after an idle spell.
  private async keepRate(): Promise<void> {
    const now = performance.now();
    const startAt = Math.max(now, this.nextStartAt);
    this.nextStartAt = startAt + 1000 / this.limits.maxCallsPerSecond;
    if (startAt > now) await sleep(startAt - now);
  }

  private recordWait(waitedMs: number): void {
    this.lastWaitMs = waitedMs;
    this.averageWaitMs = this.averageWaitMs * (1 - AVERAGE_WEIGHT) + waitedMs * AVERAGE_WEIGHT;
    this.maxWaitMs = Math.max(this.maxWaitMs, waitedMs);
  }
}
