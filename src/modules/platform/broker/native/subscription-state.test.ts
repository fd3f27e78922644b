import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetSubscriptionState,
  refusalFromConnection,
  refusalFromLink,
  setSubscriptionState,
  subscriptionState,
} from './subscription-state.ts';

const context = { user: 'flotilla', host: '127.0.0.1', port: 61616 };

afterEach(() => forgetSubscriptionState('n1'));

describe('subscription state cache', () => {
  it('is unknown until a subscription reports, then holds the last state', () => {
    expect(subscriptionState('n1')).toBe('unknown');
    setSubscriptionState('n1', 'established');
    expect(subscriptionState('n1')).toBe('established');
  });

  it('keeps the start of an ongoing outage', () => {
    const first = { ...refusalFromConnection({ kind: 'unreachable', message: 'x' }, context), since: 'then' };
    setSubscriptionState('n1', first);
    setSubscriptionState('n1', refusalFromConnection({ kind: 'timeout', message: 'y' }, context));
    expect(subscriptionState('n1')).toMatchObject({ refused: 'y', since: 'then' });
  });
});

describe('refusal snippets', () => {
  it('a permission refusal names the security setting on the notification address', () => {
    const state = refusalFromLink(
      {
        condition: 'amqp:unauthorized-access',
        description: "AMQ229213: User: flotilla does not have permission='CREATE_NON_DURABLE_QUEUE'",
      },
      context,
    );
    expect(state.cause).toBe('permission');
    expect(state.refused).toContain('CREATE_NON_DURABLE_QUEUE');
    expect(state.snippet).toContain('<security-setting match="activemq.notifications">');
    expect(state.snippet).toContain('createNonDurableQueue');
    expect(state.snippet).toContain('type="consume"');
  });

  it('an acceptor without AMQP gets an acceptor listing AMQP on the configured port', () => {
    const state = refusalFromConnection({ kind: 'protocol-not-accepted', message: 'closed before handshake' }, context);
    expect(state.cause).toBe('protocol-not-accepted');
    expect(state.snippet).toContain('tcp://127.0.0.1:61616?protocols=CORE,AMQP');
  });

  it('a missing address gets an auto-create address setting', () => {
    expect(refusalFromLink({ condition: 'amqp:not-found' }, context).snippet).toContain('<auto-create-addresses>true');
  });

  it('names the node’s own notification address in the snippets when it has one', () => {
    const own = { ...context, address: 'ops.events' };
    expect(refusalFromLink({ condition: 'amqp:not-found' }, own).snippet).toContain('match="ops.events"');
    expect(refusalFromLink({ condition: 'amqp:unauthorized-access' }, own).snippet).toContain('match="ops.events"');
    expect(refusalFromLink({ condition: 'amqp:not-found' }, context).snippet).toContain(
      'match="activemq.notifications"',
    );
  });
});

describe('TLS refusal', () => {
  it('points at a TLS acceptor', () => {
    const state = refusalFromConnection(
      { kind: 'tls', message: 'TLS handshake failed: self-signed certificate' },
      context,
    );
    expect(state.cause).toBe('tls');
    expect(state.snippet).toContain('sslEnabled=true');
  });
});
