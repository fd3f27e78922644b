import { describe, expect, it } from 'vitest';
import { canonicalJson, planHash, type PlanHashInput } from './plan-hash.ts';
import { doc, queue, snapshot } from './plan-fixtures.ts';
import { planNode } from './planner.ts';
import type { NodePlan } from './plan-types.ts';

const nodePlan = (nodeId: string, maxConsumers = 2): NodePlan =>
  planNode({
    document: doc({
      queues: [{ name: 'orders', address: 'orders', maxConsumers, filter: "k='a'" }],
      bridges: [{ name: 'b', queueName: 'orders', staticConnectors: ['r'], passwordRef: 'dc2' }],
    }),
    snapshot: snapshot({ queues: [queue('orders', { consumerCount: 1 })] }),
    appliedKeys: new Set(),
    node: { nodeId, nodeName: nodeId },
  });
const base: PlanHashInput = { revision: 3, nodes: [nodePlan('n1'), nodePlan('n2')] };

describe('planHash', () => {
  it('is a sha256 hex digest, equal for equal plans whatever the key order', () => {
    const hash = planHash(base);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const reordered = base.nodes.map((n) => ({
      hazards: n.hazards,
      steps: n.steps,
      nodeName: 'other',
      nodeId: n.nodeId,
    }));
    expect(planHash({ nodes: reordered, revision: 3 })).toBe(hash);
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });

  it('changes with the revision, a write, the node order, a hazard level and the credential reference', () => {
    const hash = planHash(base);
    const [n1, n2] = base.nodes as [NodePlan, NodePlan];
    expect(planHash({ ...base, revision: 4 })).not.toBe(hash);
    expect(planHash({ ...base, nodes: [n2, n1] })).not.toBe(hash);
    expect(planHash({ ...base, nodes: [nodePlan('n1', 3), n2] })).not.toBe(hash);
    const lowered = { ...n1, hazards: n1.hazards.map((h) => ({ ...h, level: 'LOW' as const })) };
    expect(n1.hazards.length).toBeGreaterThan(0);
    expect(planHash({ ...base, nodes: [lowered, n2] })).not.toBe(hash);
    const otherRef = { ...n1, steps: n1.steps.map((s) => (s.passwordRef ? { ...s, passwordRef: 'dc3' } : s)) };
    expect(planHash({ ...base, nodes: [otherRef, n2] })).not.toBe(hash);
    expect(planHash({ ...base, nodes: [n1, { ...n2, steps: [], hazards: [], unread: true }] })).not.toBe(
      planHash({ ...base, nodes: [n1, { ...n2, steps: [], hazards: [] }] }),
    );
  });

  it('never lets a password in', () => {
    const [n1, n2] = base.nodes as [NodePlan, NodePlan];
    const withPassword = {
      ...n1,
      steps: n1.steps.map((s) =>
        s.write.op === 'createBridge'
          ? { ...s, write: { ...s.write, bridge: { ...s.write.bridge, password: 's3cret' } } }
          : s,
      ),
    };
    expect(planHash({ ...base, nodes: [withPassword, n2] })).toBe(planHash(base));
    expect(canonicalJson({ bridge: { password: 's3cret', user: 'u' } })).toBe('{"bridge":{"user":"u"}}');
  });
});
