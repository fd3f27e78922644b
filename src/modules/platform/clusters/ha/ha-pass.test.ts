// The HA pass on recorded tier-A poll sequences of one primary/backup pair: each step is what tier A left in
// `cluster_node` for both members (A = answered Active, P = answered passive, X = poll failed), fed through the
// pass with the verdict persisted the way the worker persists it.
import { describe, expect, it } from 'vitest';
import { runHaPass, type HaNode, type PairMemory } from './ha-pass.ts';
import { CLEAR_AFTER, RAISE_AFTER } from './split-brain-ratchet.ts';

type Poll = 'A' | 'P' | 'X';
const NODE_ID = 'a1b2c3d4-0000-0000-0000-00000000node';
const TICK_MS = 5_000;
const T0 = Date.parse('2026-11-22T05:00:00.000Z');

interface Step {
  readonly serving: string[];
  readonly splitBrain: boolean;
  readonly servingChanged: boolean;
  readonly splitBrainChanged: boolean;
}

function polled(id: string, poll: Poll, at: Date, last: HaNode | undefined): HaNode {
  const reachable = poll !== 'X';
  return {
    id,
    brokerNodeId: NODE_ID,
    active: reachable ? poll === 'A' : (last?.active ?? null),
    lastSuccessAt: reachable ? at : (last?.lastSuccessAt ?? null),
    lastFailureAt: reachable ? (last?.lastFailureAt ?? null) : at,
    serving: last?.serving ?? false,
    splitBrainSince: last?.splitBrainSince ?? null,
  };
}

/** Replays `primary/backup` polls ("A/P", "X/A", …), returning what each pass decided. */
function replay(sequence: string[], start: { memory?: Map<string, PairMemory>; nodes?: HaNode[] } = {}) {
  let memory = start.memory ?? new Map<string, PairMemory>();
  let nodes = start.nodes ?? [];
  const steps: Step[] = [];
  sequence.forEach((pair, index) => {
    const [primary, backup] = pair.split('/') as [Poll, Poll];
    const at = new Date(T0 + index * TICK_MS);
    const next = [polled('primary', primary, at, nodes[0]), polled('backup', backup, at, nodes[1])];
    const result = runHaPass(next, memory);
    memory = result.memory;
    const verdicts = new Map(result.changed.map((verdict) => [verdict.id, verdict]));
    nodes = next.map((node) => {
      const verdict = verdicts.get(node.id);
      return verdict ? { ...node, serving: verdict.serving, splitBrainSince: verdict.splitBrainSince } : node;
    });
    steps.push({
      serving: [...result.servingIds].sort(),
      splitBrain: result.splitBrains.length > 0,
      servingChanged: result.servingChanged,
      splitBrainChanged: result.splitBrainChanged,
    });
  });
  return { steps, memory, nodes };
}

describe('serving node', () => {
  it('is the primary while it answers Active, never chosen by role', () => {
    const { steps } = replay(['A/P', 'A/P', 'A/P']);
    expect(steps.map((step) => step.serving)).toEqual([['primary'], ['primary'], ['primary']]);
    expect(steps.map((step) => step.servingChanged)).toEqual([true, false, false]);
  });

  it('moves to the backup on failover without any split-brain, and back on failback', () => {
    const { steps } = replay(['A/P', 'X/P', 'X/A', 'X/A', 'P/A', 'A/P']);
    expect(steps.map((step) => step.serving)).toEqual([
      ['primary'],
      ['primary'], // one missed poll is not a failover: the unreachable primary keeps serving
      ['backup'],
      ['backup'],
      ['backup'],
      ['primary'],
    ]);
    expect(steps.map((step) => step.servingChanged)).toEqual([true, false, true, false, false, true]);
    expect(steps.every((step) => !step.splitBrain)).toBe(true);
  });

  it('is nobody before the first successful poll', () => {
    const { steps } = replay(['X/X']);
    expect(steps[0]?.serving).toEqual([]);
  });
});

describe('split-brain corroboration', () => {
  it(`is raised after ${RAISE_AFTER} consecutive dual-active polls and cleared after ${CLEAR_AFTER} healthy ones`, () => {
    const { steps, nodes } = replay(['A/P', 'A/A', 'A/A', 'A/A', 'A/P', 'A/P', 'A/P']);
    expect(steps.map((step) => step.splitBrain)).toEqual([false, false, true, true, true, false, false]);
    expect(steps.map((step) => step.splitBrainChanged)).toEqual([false, false, true, false, false, true, false]);
    expect(steps[2]?.serving).toEqual(['backup', 'primary']);
    expect(nodes.every((node) => node.splitBrainSince === null)).toBe(true);
  });

  it('dates the split-brain from the first poll of the corroborating streak', () => {
    const { nodes } = replay(['A/P', 'A/A', 'A/A']);
    expect(nodes.map((node) => node.splitBrainSince?.toISOString())).toEqual([
      new Date(T0 + TICK_MS).toISOString(),
      new Date(T0 + TICK_MS).toISOString(),
    ]);
  });

  it('is never raised by flapping (a failover or failback seen mid-way)', () => {
    const { steps } = replay(['A/P', 'A/A', 'A/P', 'A/A', 'P/A', 'A/A', 'X/A']);
    expect(steps.some((step) => step.splitBrain)).toBe(false);
  });

  it('is not corroborated across a poll that missed a member', () => {
    const { steps } = replay(['A/A', 'X/A', 'A/A', 'A/X', 'A/A']);
    expect(steps.some((step) => step.splitBrain)).toBe(false);
  });

  it('does not clear on a single healthy poll between dual ones', () => {
    const { steps } = replay(['A/A', 'A/A', 'A/P', 'A/A', 'A/P']);
    expect(steps.map((step) => step.splitBrain)).toEqual([false, true, true, true, true]);
  });

  it('clears when the rogue member stops answering (it can no longer be corroborated)', () => {
    const { steps } = replay(['A/A', 'A/A', 'A/X', 'A/X']);
    expect(steps.map((step) => step.splitBrain)).toEqual([false, true, true, false]);
  });

  it('counts each poll once even when the pass runs twice on the same poll', () => {
    const first = replay(['A/A']);
    const again = runHaPass(first.nodes, first.memory);
    expect(again.splitBrains).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('resumes from the persisted verdict after a restart: still raised, and cleared by healthy polls', () => {
    const before = replay(['A/A', 'A/A']);
    // A new worker: no memory, only the rows.
    const { steps } = replay(['A/A', 'A/P', 'A/P'], { nodes: before.nodes, memory: new Map() });
    expect(steps.map((step) => step.splitBrain)).toEqual([true, true, false]);
    expect(steps[0]?.splitBrainChanged).toBe(false);
  });

  it('treats nodes of other logical nodes separately', () => {
    const at = new Date(T0);
    const node = (id: string, brokerNodeId: string, active: boolean): HaNode => ({
      id,
      brokerNodeId,
      active,
      lastSuccessAt: at,
      lastFailureAt: null,
      serving: false,
      splitBrainSince: null,
    });
    const nodes = [node('live1', 'n1', true), node('live2', 'n2', true)];
    const first = runHaPass(nodes, new Map());
    const later = nodes.map((n) => ({ ...n, lastSuccessAt: new Date(T0 + TICK_MS) }));
    const second = runHaPass(later, first.memory);
    expect(second.splitBrains).toEqual([]);
    expect([...second.servingIds].sort()).toEqual(['live1', 'live2']);
  });
});
