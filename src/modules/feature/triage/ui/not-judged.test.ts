import { describe, expect, it } from 'vitest';
import type { Verdict } from '@/base/consumer-verdicts.ts';
import { clustersNotJudged, type ClusterForTriage } from './not-judged.ts';

// The fleet endpoint (triage/server/fleet.ts) words every DOWN and UNKNOWN cluster's problems itself.
const cluster = (
  name: string,
  health: ClusterForTriage['health'],
  more: Partial<ClusterForTriage> = {},
): ClusterForTriage => ({
  id: `id-${name}`,
  name,
  health,
  problems: [] as string[],
  verdicts: { counts: {} as Record<Verdict, number>, worst: null, evaluatedAt: null },
  ...more,
});

describe('clustersNotJudged', () => {
  it('names the down and never-polled clusters, with their problems in words', () => {
    expect(
      clustersNotJudged([
        cluster('payments', 'UP'),
        cluster('billing', 'DOWN', { problems: ['no node answers'] }),
        cluster('fresh', 'UNKNOWN', { problems: ['not polled yet'] }),
        cluster('shipping', 'DEGRADED', { problems: ['node s2 fails'] }),
      ]),
    ).toEqual([
      { id: 'id-billing', name: 'billing', why: 'no node answers' },
      { id: 'id-fresh', name: 'fresh', why: 'not polled yet' },
    ]);
  });

  it('leaves out a cluster whose metrics the viewer may not read (triage does not cover it)', () => {
    expect(clustersNotJudged([cluster('hidden', 'DOWN', { verdicts: null })])).toEqual([]);
  });
});
