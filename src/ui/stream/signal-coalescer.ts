// A view refetches at most once a second per topic, however fast its signals come. The server already coalesces its
// change signals (spec, Events: one per topic per second per cluster), but the `events` topic carries every broker
// notification, and an application that opens a session per message (as an uncached JMS template does) sends dozens
// a second: each one refetched every events and consumer-health view on screen (35 requests a second from one idle
// cluster page on the demo fleet). The first signal of a quiet topic passes at once, so a lone change shows without
// delay; the later ones within the second become one signal at its end, so the last change is never lost.
import type { StreamSignal } from './stream-connection.ts';

const SIGNAL_INTERVAL_MS = 1_000;

export class SignalCoalescer {
  private readonly lastPassedAt = new Map<string, number>();
  private readonly waiting = new Map<string, { signal: StreamSignal; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly pass: (signal: StreamSignal) => void,
    private readonly intervalMs = SIGNAL_INTERVAL_MS,
  ) {}

  offer(signal: StreamSignal): void {
    const waiting = this.waiting.get(signal.topic);
    if (waiting) {
      waiting.signal = signal;
      return;
    }
    const sinceLast = Date.now() - (this.lastPassedAt.get(signal.topic) ?? Number.NEGATIVE_INFINITY);
    if (sinceLast >= this.intervalMs) {
      this.passNow(signal);
      return;
    }
    // The entry's signal is replaced by later offers; the timer passes whichever is newest when it fires.
    const entry = {
      signal,
      timer: setTimeout(() => {
        this.waiting.delete(signal.topic);
        this.passNow(entry.signal);
      }, this.intervalMs - sinceLast),
    };
    this.waiting.set(signal.topic, entry);
  }

  /** Drops the signals still waiting (the connection is closing: its views go with it). */
  close(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private passNow(signal: StreamSignal): void {
    this.lastPassedAt.set(signal.topic, Date.now());
    this.pass(signal);
  }
}
