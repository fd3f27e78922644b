import { describe, expect, it } from 'vitest';
import { classifyConnectionFailure } from './connection-failure.ts';

describe('classifyConnectionFailure', () => {
  it('tells refused credentials, TLS, unreachable ports and acceptors without AMQP apart', () => {
    expect(
      classifyConnectionFailure(
        { condition: 'amqp:unauthorized-access', description: 'Failed to authenticate' },
        false,
        true,
      ).kind,
    ).toBe('authentication');
    expect(
      classifyConnectionFailure(
        { code: 'SELF_SIGNED_CERT_IN_CHAIN', message: 'self-signed certificate in certificate chain' },
        false,
        false,
      ).kind,
    ).toBe('tls');
    expect(
      classifyConnectionFailure({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, false, false).kind,
    ).toBe('unreachable');
    expect(classifyConnectionFailure(undefined, false, false).kind).toBe('protocol-not-accepted');
    expect(classifyConnectionFailure({ code: 'ECONNRESET', message: 'read ECONNRESET' }, false, false).kind).toBe(
      'protocol-not-accepted',
    );
  });

  it('calls a lost open connection closed by the broker', () => {
    expect(
      classifyConnectionFailure({ condition: 'amqp:connection:forced', description: 'shutdown' }, true, true),
    ).toEqual({
      kind: 'closed-by-broker',
      message: 'connection closed: amqp:connection:forced: shutdown',
    });
  });
});
