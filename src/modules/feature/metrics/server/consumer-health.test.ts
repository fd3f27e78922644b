import { describe, expect, it } from 'vitest';
import type { QueueHealthInput } from '@/modules/platform/scrape/read/index.ts';
import { evaluateHealth, verdictOf, type HealthSettings } from './consumer-health.ts';

const settings: HealthSettings = { windowMs: 300_000, minSamples: 3, trendShare: 0.05 };
const queue = (overrides: Partial<QueueHealthInput>): QueueHealthInput => ({
  address: 'orders',
  queueName: 'orders',
  routingType: 'ANYCAST',
  depth: 100,
  consumers: 2,
  delivering: 10,
  paused: false,
  stale: false,
  samples: 30,
  depthAtStart: 100,
  depthAtEnd: 100,
  inRate: 10,
  outRate: 10,
  ...overrides,
});
const slow = { at: '2026-11-24T10:00:00.000Z', consumerId: '7', node: 'b1' };

describe('consumer health: the ordered ladder', () => {
  it.each([
    ['INSUFFICIENT_DATA', { samples: 2 }],
    ['INSUFFICIENT_DATA', { inRate: null }],
    ['PAUSED', { paused: true, consumers: 0 }],
    ['NO_CONSUMERS', { consumers: 0, delivering: 0, outRate: 0 }],
    ['STALLED', { outRate: 0, delivering: 5 }],
    ['STARVED', { outRate: 0, delivering: 0, inRate: 0 }],
    ['FALLING_BEHIND', { depthAtStart: 100, depthAtEnd: 400, inRate: 20, outRate: 10 }],
    ['DRAINING', { depthAtStart: 400, depthAtEnd: 100, inRate: 5, outRate: 20 }],
    ['HEALTHY', {}],
    ['HEALTHY', { depth: 0, consumers: 0, delivering: 0, depthAtStart: 0, depthAtEnd: 0, inRate: 0, outRate: 0 }],
  ] as const)('gives %s', (verdict, overrides) => {
    expect(verdictOf(queue(overrides), undefined, settings)).toBe(verdict);
  });

  it('lets a CONSUMER_SLOW notification outrank any derived verdict, even too little data', () => {
    expect(verdictOf(queue({ samples: 0, inRate: null }), slow, settings)).toBe('BROKER_SLOW');
    expect(verdictOf(queue({ paused: true }), slow, settings)).toBe('BROKER_SLOW');
  });

  it('takes the first match: a paused queue without consumers is PAUSED, a stalled one growing is STALLED', () => {
    expect(verdictOf(queue({ paused: true, consumers: 0 }), undefined, settings)).toBe('PAUSED');
    expect(verdictOf(queue({ outRate: 0, depthAtEnd: 900 }), undefined, settings)).toBe('STALLED');
  });

  it('carries its evidence and advice', () => {
    const [health] = evaluateHealth([queue({ consumers: 0, outRate: 0, delivering: 0 })], new Map(), settings);
    expect(health).toMatchObject({
      verdict: 'NO_CONSUMERS',
      evidence: { windowMs: 300_000, consumers: 0, depth: 100, slowConsumer: null },
    });
    expect(health?.advice).toContain('no consumer is attached');
  });
});
