import { describe, expect, it } from 'vitest';
import { Correlator } from './correlator.ts';
import type { ObservedMessage } from './rr-types.ts';

const expectation = { expectedLatencyMs: 100, deadlineMs: 1_000, replyAddress: null, source: 'expectation' as const };

function correlator() {
  return new Correlator({
    expectationFor: () => expectation,
    declaredReplyAddress: (address) => address === 'declared.replies',
    orphanReplyGraceMs: 500,
    maxAwaiting: 3,
  });
}

function message(overrides: Partial<ObservedMessage>): ObservedMessage {
  return {
    nodeId: 'n1',
    address: 'orders.requests',
    messageId: null,
    correlationId: null,
    replyTo: null,
    sentAt: null,
    seenAt: 10_000,
    expiresAt: null,
    feed: 'capture',
    headers: {},
    ...overrides,
  };
}

const request = (id: string, at: number, extra: Partial<ObservedMessage> = {}) =>
  message({ messageId: `ID:${id}`, replyTo: 'orders.replies', sentAt: at, seenAt: at + 5, ...extra });
const reply = (correlationId: string, at: number, extra: Partial<ObservedMessage> = {}) =>
  message({ address: 'orders.replies', correlationId, sentAt: at, seenAt: at + 7, ...extra });

describe('Correlator, shared reply queue', () => {
  it('matches a reply on the request’s message id and measures on the messages’ own clocks', () => {
    const c = correlator();
    expect(c.message(request('a', 10_000)).map((x) => x.state)).toEqual(['AWAITING_REPLY']);
    const [done] = c.message(reply('a', 10_042));
    expect(done).toMatchObject({ state: 'COMPLETED', latencyMs: 42, clock: 'message', replyAddress: 'orders.replies' });
    expect(c.awaitingCount).toBe(0);
  });

  it('matches on the correlation id when the request carries one, whichever copy comes first', () => {
    const c = correlator();
    expect(c.message(reply('corr-1', 10_030))).toEqual([]);
    const states = c.message(request('m1', 10_000, { correlationId: 'corr-1' }));
    expect(states.map((x) => [x.state, x.latencyMs])).toEqual([
      ['AWAITING_REPLY', null],
      ['COMPLETED', 30],
    ]);
  });

  it('times out a request still queued at its deadline and calls an acknowledged one dropped', () => {
    const c = correlator();
    c.message(request('slow', 10_000));
    c.message(request('dropped', 10_100));
    expect(c.due(10_999)).toEqual([]);
    expect(c.due(11_200).map((x) => x.key)).toEqual(['slow', 'dropped']);
    expect(c.settleDue('slow', false, 11_200)[0]?.state).toBe('TIMED_OUT');
    expect(c.settleDue('dropped', true, 11_200)[0]?.state).toBe('RESPONDER_DROPPED');
    // A late reply to a settled request is no orphan.
    expect(c.message(reply('slow', 11_500))).toEqual([]);
    expect(c.expireHeldReplies(20_000)).toEqual([]);
  });

  it('takes the deadline from the request’s expiration before the expectation', () => {
    const c = correlator();
    const [awaiting] = c.message(request('x', 10_000, { expiresAt: 10_300 }));
    expect(awaiting).toMatchObject({ deadlineAt: 10_300, deadlineSource: 'expiration' });
  });

  it('calls a reply with no request an orphan after the grace, on a known reply address only', () => {
    const c = correlator();
    c.message(request('seed', 10_000));
    c.message(reply('seed', 10_010));
    c.message(reply('nobody', 11_000));
    c.message(reply('elsewhere', 11_000, { address: 'not.a.reply.address' }));
    c.message(reply('declared', 11_000, { address: 'declared.replies' }));
    expect(c.expireHeldReplies(11_100)).toEqual([]);
    const orphans = c.expireHeldReplies(11_600);
    expect(orphans.map((x) => [x.state, x.correlationId]).sort()).toEqual([
      ['ORPHANED_REPLY', 'declared'],
      ['ORPHANED_REPLY', 'nobody'],
    ]);
  });

  it('ignores the same request seen twice (a re-browse) and bounds how many wait', () => {
    const c = correlator();
    c.message(request('a', 1));
    expect(c.message(request('a', 1))).toEqual([]);
    c.message(request('b', 2));
    c.message(request('c', 3));
    const states = c.message(request('d', 4));
    expect(states.map((x) => [x.key, x.state])).toEqual([
      ['a', 'TIMED_OUT'],
      ['d', 'AWAITING_REPLY'],
    ]);
  });
});

describe('Correlator, temporary reply queues', () => {
  const temp = '0b0c6f2e-6a4f-4d51-9a35-3f1f2f6c8d10';
  const tempRequest = (id: string, at: number) => request(id, at, { replyTo: temp });

  it('completes when the temporary queue receives its reply', () => {
    const c = correlator();
    expect(c.message(tempRequest('t1', 10_000))[0]).toMatchObject({ pattern: 'temporary-queue', replyAddress: temp });
    expect(c.replyReachedTemporaryQueue(temp, 10_200)[0]).toMatchObject({ state: 'COMPLETED', clock: 'observed' });
  });

  it('orphans a request whose temporary queue went while it was unacknowledged', () => {
    const c = correlator();
    c.message(tempRequest('t1', 10_000));
    const waiting = c.temporaryQueueRemoved(temp);
    expect(waiting.map((x) => x.key)).toEqual(['t1']);
    expect(c.settleRemovedQueue('t1', true, 10_500)[0]?.state).toBe('ORPHANED');
  });

  it('infers completion when the request was acknowledged before the queue went', () => {
    const c = correlator();
    c.message(tempRequest('t1', 10_000));
    expect(c.settleRemovedQueue('t1', false, 10_500)[0]?.state).toBe('COMPLETED');
  });

  it('knows a core JMS temporary queue by its scheme', () => {
    const c = correlator();
    const [awaiting] = c.message(request('j', 1, { replyTo: 'temp-queue://abc' }));
    expect(awaiting).toMatchObject({ pattern: 'temporary-queue', replyAddress: 'abc' });
  });
});
