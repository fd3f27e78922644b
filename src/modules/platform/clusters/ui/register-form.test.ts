import { describe, expect, it } from 'vitest';
import { EMPTY_REGISTER_FORM, refusedAnswerOf, registerInput } from './register-form.ts';

const form = {
  ...EMPTY_REGISTER_FORM,
  name: 'orders',
  environment: 'prod',
  managementUrl: 'http://broker-1:8161/console/jolokia',
  username: 'admin',
  password: 'secret',
};

describe('the register form’s request', () => {
  it('sends the seed node and the credentials, without TLS when none is given', () => {
    expect(registerInput(form, true)).toEqual({
      name: 'orders',
      environment: 'prod',
      description: '',
      nodes: [{ managementUrl: 'http://broker-1:8161/console/jolokia' }],
      credentials: { username: 'admin', password: 'secret' },
      dryRun: true,
    });
  });

  it('adds the nodes typed by hand, one a line with an optional AMQP URL, skipping blank lines', () => {
    const input = registerInput(
      {
        ...form,
        amqpUrl: 'amqp://broker-1:61616',
        moreNodes: ' http://broker-2:8161/console/jolokia   amqp://broker-2:61616\n\n http://broker-3:8161/x ',
      },
      false,
    );
    expect(input.nodes).toEqual([
      { managementUrl: 'http://broker-1:8161/console/jolokia', amqpUrl: 'amqp://broker-1:61616' },
      { managementUrl: 'http://broker-2:8161/console/jolokia', amqpUrl: 'amqp://broker-2:61616' },
      { managementUrl: 'http://broker-3:8161/x' },
    ]);
    expect(input.dryRun).toBe(false);
  });

  it('sends only the TLS material that is filled in', () => {
    expect(registerInput({ ...form, ca: 'PEM', clientKey: '  ' }, true).tls).toEqual({ ca: 'PEM' });
  });

  it('reads the checks out of a refusal, and nothing out of another problem', () => {
    const refusal = (type: string) => ({ data: { problem: { type, title: 'Refused', checks: [], nodes: [] } } });
    expect(refusedAnswerOf(refusal('registration-checks-failed'))).toEqual({ checks: [], nodes: [], refused: true });
    expect(refusedAnswerOf(refusal('validation-failed'))).toBeUndefined();
    expect(refusedAnswerOf(new Error('network'))).toBeUndefined();
  });
});
