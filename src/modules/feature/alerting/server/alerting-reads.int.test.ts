// The reads behind the alerting screens, over REST on a real database: the conditions with their parameters as
// JSON Schema (the rule editor's form), the channel kinds with their configuration (the channel form), and firing
// alerts counted per cluster (the fleet home's badges) — pending and resolved ones not counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOneNodeCluster } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import { evaluateCluster } from './evaluator.ts';

let secured: SecuredRuntime;
let call: RestCall;
let clusterId: string;

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call } = await secured.signedIn());
  ({ clusterId } = await insertOneNodeCluster(secured.runtime.prisma, 'counted', [
    { queueName: 'orders.in', messageCount: 50 },
    { queueName: 'orders.out', messageCount: 70 },
    { queueName: 'billing', messageCount: 1 },
  ]));
});

afterAll(async () => {
  await secured.close();
});

describe('the screens’ reads', () => {
  it('list the conditions with their parameters as JSON Schema', async () => {
    const answer = await call('GET', '/alerts/conditions');
    expect(answer.status).toBe(200);
    const items = answer.json.items as { kind: string; description: string; params: Record<string, unknown> }[];
    expect(items.map((item) => item.kind)).toEqual(expect.arrayContaining(['queue-threshold', 'node-down']));
    const threshold = items.find((item) => item.kind === 'queue-threshold');
    expect(threshold?.params).toMatchObject({
      type: 'object',
      properties: {
        metric: { enum: expect.arrayContaining(['depth', 'consumers', 'inRate', 'outRate']) as unknown },
        threshold: { type: 'number' },
      },
      required: expect.arrayContaining(['metric', 'threshold']) as unknown,
    });
    expect(threshold?.params).not.toHaveProperty('$schema');
  });

  it('list the channel kinds with the configuration each takes', async () => {
    const answer = await call('GET', '/alerts/channels/kinds');
    expect(answer.status).toBe(200);
    const items = answer.json.items as { kind: string; config: { properties: Record<string, unknown> } }[];
    expect(items.map((item) => item.kind)).toEqual(expect.arrayContaining(['webhook', 'slack']));
    expect(Object.keys(items.find((item) => item.kind === 'webhook')?.config.properties ?? {})).toEqual(
      expect.arrayContaining(['kind', 'url', 'secret']),
    );
  });

  it('count firing alerts per cluster, critical and unacknowledged apart', async () => {
    expect((await call('GET', '/alerts/firing-by-cluster')).json).toEqual({ items: [] });
    const rule = async (name: string, severity: string, forSeconds: number) => {
      const created = await call('POST', '/alerts/rules', {
        name,
        severity,
        forSeconds,
        clusterId,
        pattern: 'orders.*',
        condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 10 } },
      });
      expect(created.status).toBe(200);
    };
    await rule('deep orders', 'critical', 0);
    await rule('deep orders, warned', 'warning', 0);
    await rule('deep orders, later', 'warning', 3_600);
    const deps = { db: secured.runtime.db, prisma: secured.runtime.prisma, registry: secured.runtime.registry };
    await evaluateCluster(deps, clusterId, new Date());

    const firing = await call('GET', `/alerts?view=firing&clusterId=${clusterId}&pageSize=100`);
    expect(firing.json.total).toBe(4);
    const first = (firing.json.items as { id: string }[])[0];
    expect((await call('POST', `/alerts/${first?.id}/acknowledge`, {})).status).toBe(200);

    expect((await call('GET', '/alerts/firing-by-cluster')).json).toEqual({
      items: [{ clusterId, firing: 4, critical: 2, unacknowledged: 3 }],
    });
  });
});
