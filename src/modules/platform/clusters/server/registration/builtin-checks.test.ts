import { describe, expect, it } from 'vitest';
import type { RegistrationProbe, RegistrationProbeNode } from './registration-check.ts';
import { capabilities, givenNodes } from './builtin-checks.ts';

const probeOf = (overrides: Partial<RegistrationProbe>): RegistrationProbe => ({
  purpose: 'register',
  conflicts: [],
  clusterName: 'c',
  username: 'u',
  nodes: [],
  capabilities: {},
  call: () => Promise.resolve([]),
  ...overrides,
});

const node = (url: string, answered: boolean, discovered = false): RegistrationProbeNode => ({
  managementUrl: url,
  amqpUrl: null,
  discovered,
  urlSource: { method: discovered ? 'not-confirmed' : 'given', detail: '' },
  role: answered ? 'PRIMARY' : 'UNKNOWN',
  ...(answered
    ? { state: { name: url, version: '2.44.0', nodeId: url, active: true, backup: false, haPolicy: '' } }
    : { error: { kind: 'unreachable', message: 'connection refused', advice: '' } }),
});

describe('capabilities check', () => {
  const probe = (value: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN') =>
    probeOf({
      capabilities: {
        MANAGEMENT_READ: { value, detail: 'why', snippet: value === 'UNAVAILABLE' ? '<x/>' : undefined },
      },
    });

  it('fails without management read, warns when it could not be checked', async () => {
    expect(await capabilities.run(probe('UNAVAILABLE'))).toMatchObject({ status: 'fail', snippet: '<x/>' });
    expect(await capabilities.run(probe('UNKNOWN'))).toMatchObject({ status: 'warn' });
    expect(await capabilities.run(probe('AVAILABLE'))).toMatchObject({ status: 'ok' });
  });
});

describe('given-nodes check', () => {
  it('fails naming a given node that did not answer when registering, not a discovered one', async () => {
    const nodes = [node('http://a', true), node('http://b', false), node('http://c', false, true)];
    const outcome = await givenNodes.run(probeOf({ nodes }));
    expect(outcome.status).toBe('fail');
    expect(outcome.detail).toContain('http://b did not answer');
    expect(outcome.detail).not.toContain('http://c');
  });

  it('lets a rediscovery through with a stored node down', async () => {
    const nodes = [node('http://a', true), node('http://b', false)];
    expect(await givenNodes.run(probeOf({ nodes, purpose: 'rediscover' }))).toMatchObject({ status: 'ok' });
  });

  it('fails with every conflict discovery found, in its own words', async () => {
    const outcome = await givenNodes.run(
      probeOf({ nodes: [node('http://a', true)], conflicts: ['http://x reports NodeID n1, which …'] }),
    );
    expect(outcome.status).toBe('fail');
    expect(outcome.detail).toContain('http://x reports NodeID n1');
  });
});
