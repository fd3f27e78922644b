import { describe, expect, it } from 'vitest';
import { nextDueAt } from './tick-schedule.ts';

describe('a tier tick schedule', () => {
  it('keeps its cadence when every timer runs late: ten ticks 50 ms late still average the interval', () => {
    let due = 0;
    const ran: number[] = [];
    for (let tick = 0; tick < 10; tick += 1) {
      due = nextDueAt(due, 500, due + 50); // the timer of the last tick ran 50 ms after it was due
      ran.push(due + 50);
    }
    const meanGap = ((ran.at(-1) ?? 0) - (ran[0] ?? 0)) / (ran.length - 1);
    expect(meanGap).toBe(500);
  });

  it('is due at once when the last tick ran later than the interval, and never runs missed ticks back to back', () => {
    expect(nextDueAt(0, 500, 700)).toBe(500); // behind by less than an interval: due (at once) where it was
    expect(nextDueAt(0, 500, 5_000)).toBe(5_000); // far behind (a pause): from now, not nine ticks in a row
  });
});
