// The preflight's rules without a broker: which role sets refuse, and what each refusal proposes. The broker suites
// (capture.broker.test.ts) show both refusals on real brokers; security off cannot be set on a shared broker.
import { describe, expect, it } from 'vitest';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { refuseExclusiveDivert, refuseUncheckedNode, refuseUnrestrictedQueue } from './preflight.ts';

const role = (name: string, consume: boolean, browse: boolean) => ({ name, consume, browse });

function problemOf(work: () => void) {
  try {
    work();
  } catch (error) {
    if (error instanceof ProblemError) return error.problem;
    throw error;
  }
  return undefined;
}

describe('capture preflight', () => {
  it('refuses when security is off, proposing security on and the capture match restricted to the source readers', () => {
    const problem = problemOf(() =>
      refuseUnrestrictedQueue('orders', 'flotilla.capture.d1.orders.ab12cd34.#', {
        securityEnabled: false,
        sourceRoles: [role('ops', true, false), role('audit', false, true), role('sender', false, false)],
        captureRoles: [],
      }),
    );
    expect(problem).toMatchObject({ type: 'capture-refused', status: 409, reason: 'unrestricted-queue' });
    expect(problem?.configSnippet).toContain('<security-enabled>true</security-enabled>');
    expect(problem?.configSnippet).toContain('<security-setting match="flotilla.capture.d1.orders.ab12cd34.#">');
    expect(problem?.configSnippet).toContain('<permission type="consume" roles="audit,ops"/>');
  });

  it('lets a capture through whose readers are the source’s readers or fewer', () => {
    const security = {
      securityEnabled: true,
      sourceRoles: [role('ops', true, true), role('audit', false, true)],
      captureRoles: [role('ops', true, false), role('writers', false, false)],
    };
    expect(problemOf(() => refuseUnrestrictedQueue('orders', 'm', security))).toBeUndefined();
  });

  it('refuses a reader of the copy that may not read the source, naming it', () => {
    const problem = problemOf(() =>
      refuseUnrestrictedQueue('orders', 'm', {
        securityEnabled: true,
        sourceRoles: [role('ops', true, true)],
        captureRoles: [role('ops', true, true), role('guest', false, true)],
      }),
    );
    expect(problem?.detail).toContain('guest');
    expect(problem?.configSnippet).not.toContain('security-enabled');
  });

  it('refuses only an exclusive divert on the source address itself', () => {
    const divert = { name: 'd', address: 'orders', forwardingAddress: 'elsewhere', exclusive: true, filter: null };
    expect(problemOf(() => refuseExclusiveDivert('payments', [divert]))).toBeUndefined();
    expect(problemOf(() => refuseExclusiveDivert('orders', [{ ...divert, exclusive: false }]))).toBeUndefined();
    expect(problemOf(() => refuseExclusiveDivert('orders', [divert]))).toMatchObject({ reason: 'exclusive-divert' });
  });

  it('refuses a node it could not ask, naming the node, its failure and the advice, with nothing stored', () => {
    const problem = refuseUncheckedNode('live2', {
      message: 'Not reachable: connection refused.',
      advice: 'Check host and port.',
      configSnippet: null,
    }).problem;
    expect(problem).toMatchObject({ type: 'capture-refused', status: 409, reason: 'node-unreachable' });
    expect(problem.detail).toBe(
      'The capture could not be checked on live2: Not reachable: connection refused. Check host and port. Nothing was stored.',
    );
    expect(problem).not.toHaveProperty('configSnippet');
  });
});
