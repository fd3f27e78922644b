import { describe, expect, it } from 'vitest';
import { gateOf, type LedgerRow } from './gate-of.ts';

const row = (capability: string, value: LedgerRow['value'], detail = '', snippet: string | null = null): LedgerRow => ({
  capability,
  value,
  detail,
  snippet,
});

describe('the capability gate of a write control', () => {
  it('is open while the ledger is not there, and when what it needs is available', () => {
    expect(gateOf(undefined, ['MANAGEMENT_WRITE'])).toMatchObject({ value: 'AVAILABLE', disabled: false });
    expect(gateOf([row('MANAGEMENT_WRITE', 'AVAILABLE')], ['MANAGEMENT_WRITE']).reason).toBeUndefined();
    // Another capability being off does not gate this control.
    expect(gateOf([row('MESSAGE_IO', 'UNAVAILABLE', 'no AMQP acceptor')], ['MANAGEMENT_WRITE']).disabled).toBe(false);
  });

  it('keeps an uncertain control enabled and says what is not confirmed', () => {
    const gate = gateOf([row('MANAGEMENT_WRITE', 'UNKNOWN', 'no write was tried yet.')], ['MANAGEMENT_WRITE']);
    expect(gate).toMatchObject({ value: 'UNKNOWN', disabled: false, capability: 'MANAGEMENT_WRITE', snippet: null });
    expect(gate.reason).toBe('Writes not confirmed yet: no write was tried yet');
  });

  it('disables an unavailable control with the reason and the snippet, the worst capability deciding', () => {
    const gate = gateOf(
      [row('MANAGEMENT_WRITE', 'UNKNOWN', 'untried'), row('MESSAGE_IO', 'UNAVAILABLE', 'no acceptor', '<acceptor/>')],
      ['MANAGEMENT_WRITE', 'MESSAGE_IO'],
    );
    expect(gate).toMatchObject({
      value: 'UNAVAILABLE',
      disabled: true,
      capability: 'MESSAGE_IO',
      snippet: '<acceptor/>',
    });
    expect(gate.reason).toBe('Sending messages (native message I/O) unavailable on this cluster: no acceptor');
  });
});
