// rr's alert conditions (contributed to alerting's `alerting.conditions`): per request address over a window,
// the share of settled requests that TIMED_OUT, and the p95 latency of completed pairs. One statement per cluster and
// window, shared by every rule that asks (context.once). An address with fewer settled requests than the rule's
// minimum is not judged (a single timeout out of two is no trend).
import { z } from 'zod';
import type { AlertCondition, ConditionResult } from '@/modules/feature/alerting/module.ts';
import { addressNumbers } from '../address-numbers.ts';

const windowSeconds = z.number().int().min(60).max(86_400).default(300).describe('The window measured over');
const minRequests = z.number().int().min(1).default(20).describe('Not judged below this many settled requests');

const timedOutParams = z.object({
  windowSeconds,
  minRequests,
  thresholdPercent: z.number().min(0).max(100).describe('Fires when the timed-out share is above this'),
});

const p95Params = z.object({
  windowSeconds,
  minRequests,
  thresholdMs: z.number().int().min(1).describe('Fires when the p95 latency (ms) is above this'),
});

type Context = Parameters<AlertCondition['evaluate']>[0];

/** Settled, timed-out and completed requests and the p95 per address, settled in the window (one read per window). */
function numbersOf(context: Context, seconds: number) {
  const from = new Date(context.now.getTime() - seconds * 1_000);
  return context.once(`rr-numbers:${seconds}`, async () =>
    (await addressNumbers(context.prisma, context.clusterId, { from, until: context.now, by: 'state_at' })).map(
      (row) => {
        const count = (state: string) => Number(row[state] ?? 0);
        return {
          address: row.address,
          settled: count('COMPLETED') + count('TIMED_OUT') + count('ORPHANED') + count('RESPONDER_DROPPED'),
          timedOut: count('TIMED_OUT'),
          completed: count('COMPLETED'),
          p95: row.p95,
        };
      },
    ),
  );
}

export const rrTimedOutShare: AlertCondition = {
  params: timedOutParams,
  async evaluate(context) {
    const params = timedOutParams.parse(context.params);
    const results: ConditionResult[] = [];
    for (const row of context.select(await numbersOf(context, params.windowSeconds), (row) => row.address)) {
      if (row.settled < params.minRequests) continue;
      const percent = (row.timedOut / row.settled) * 100;
      results.push({ subject: row.address, value: percent, firing: percent > params.thresholdPercent });
    }
    return results;
  },
};

export const rrP95Latency: AlertCondition = {
  params: p95Params,
  async evaluate(context) {
    const params = p95Params.parse(context.params);
    const results: ConditionResult[] = [];
    for (const row of context.select(await numbersOf(context, params.windowSeconds), (row) => row.address)) {
      if (row.completed < params.minRequests || row.p95 === null) continue;
      results.push({ subject: row.address, value: row.p95, firing: row.p95 > params.thresholdMs });
    }
    return results;
  },
};
