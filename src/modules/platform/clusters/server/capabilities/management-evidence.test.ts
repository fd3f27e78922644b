import { describe, expect, it } from 'vitest';
import { managementEntries, type ManagementFailure } from './management-evidence.ts';

const failure = (node: string, kind: string): ManagementFailure => ({
  node,
  kind,
  message: `${kind} on ${node}`,
  advice: 'Check the user',
  snippet: kind === 'auth-failed' ? 'flotilla = <password>' : null,
});

describe('management capabilities from the scrape’s calls, by error class', () => {
  it('confirms MANAGEMENT_READ when a node answered, naming the nodes that refused', () => {
    expect(
      managementEntries({ answered: ['b1'], failed: [failure('b2', 'forbidden'), failure('b3', 'timeout')] }),
    ).toEqual([
      {
        capability: 'MANAGEMENT_READ',
        verdict: {
          value: 'AVAILABLE',
          detail: "the scrape's management reads are answered; refused on b2 (forbidden)",
          snippet: null,
        },
        confirmedBy: 'scrape',
      },
    ]);
  });

  it('says nothing when every failure is the network (the node status shows it, not the ledger)', () => {
    expect(
      managementEntries({ answered: [], failed: [failure('b1', 'unreachable'), failure('b2', 'timeout')] }),
    ).toEqual([]);
  });

  it('makes read and write UNAVAILABLE when the login is refused, with the advice and snippet', () => {
    const entries = managementEntries({ answered: [], failed: [failure('b1', 'auth-failed')] });
    expect(entries.map((entry) => [entry.capability, entry.verdict.value])).toEqual([
      ['MANAGEMENT_READ', 'UNAVAILABLE'],
      ['MANAGEMENT_WRITE', 'UNAVAILABLE'],
    ]);
    expect(entries[0]?.verdict).toEqual({
      value: 'UNAVAILABLE',
      detail: 'b1: auth-failed: auth-failed on b1. Check the user',
      snippet: 'flotilla = <password>',
    });
  });

  it('leaves write to the recheck when only reads are forbidden', () => {
    const entries = managementEntries({ answered: [], failed: [failure('b1', 'forbidden')] });
    expect(entries.map((entry) => entry.capability)).toEqual(['MANAGEMENT_READ']);
  });
});
