import { describe, expect, it } from 'vitest';
import { configDocument } from '../model/document.ts';
import { doc } from './plan-fixtures.ts';
import { recommend, type RecommendationContext } from './recommendations.ts';

const everywhere: RecommendationContext = { clustered: true, production: true };
const byId = (list: ReturnType<typeof recommend>, id: string) => {
  const found = list.find((r) => r.id === id);
  if (!found) throw new Error(`no recommendation ${id}`);
  return found;
};

describe('recommend', () => {
  it('gives all five on an empty document of a clustered production fleet, none satisfied, each citing what it prevents', () => {
    const list = recommend(doc(), everywhere);
    expect(list.map((r) => r.id)).toEqual([
      'dead-letter-and-expiry-at-root',
      'bounded-delivery-attempts',
      'redistribution-delay',
      'paging-limits',
      'no-auto-create-in-production',
    ]);
    for (const r of list) {
      expect(r.satisfied).toBe(false);
      expect(r.prevents.length).toBeGreaterThan(10);
      // The proposal is a valid document that satisfies the recommendation.
      expect(configDocument.parse(r.proposal)).toEqual(r.proposal);
      expect(byId(recommend(r.proposal, everywhere), r.id).satisfied).toBe(true);
    }
  });

  it('leaves out the cluster and production ones where they do not apply', () => {
    const ids = recommend(doc(), { clustered: false, production: false }).map((r) => r.id);
    expect(ids).not.toContain('redistribution-delay');
    expect(ids).not.toContain('no-auto-create-in-production');
  });

  it('keeps the other fields and entries when it adds to "#"', () => {
    const document = doc({
      addressSettings: [
        { match: 'orders.#', settings: { redeliveryDelay: 100 } },
        { match: '#', settings: { deadLetterAddress: 'MyDLQ', redeliveryDelay: 5 } },
      ],
    });
    const proposal = byId(recommend(document, everywhere), 'dead-letter-and-expiry-at-root').proposal;
    expect(proposal.addressSettings).toEqual([
      { match: 'orders.#', settings: { redeliveryDelay: 100 } },
      { match: '#', settings: { deadLetterAddress: 'MyDLQ', redeliveryDelay: 5, expiryAddress: 'ExpiryQueue' } },
    ]);
  });

  it('is satisfied and proposes the same document when taken already', () => {
    const document = doc({
      addressSettings: [{ match: '#', settings: { deadLetterAddress: 'DLQ', expiryAddress: 'E' } }],
    });
    const found = byId(recommend(document, everywhere), 'dead-letter-and-expiry-at-root');
    expect(found.satisfied).toBe(true);
    expect(found.proposal).toBe(document);
  });

  it('treats -1, unset or more than 100 delivery attempts as unbounded, at "#" or elsewhere', () => {
    const check = (settings: Record<string, number>[]) =>
      byId(
        recommend(
          doc({ addressSettings: settings.map((s, i) => ({ match: i === 0 ? '#' : `m${i}`, settings: s })) }),
          everywhere,
        ),
        'bounded-delivery-attempts',
      );
    expect(check([{}]).satisfied).toBe(false);
    expect(check([{ maxDeliveryAttempts: -1 }]).satisfied).toBe(false);
    expect(check([{ maxDeliveryAttempts: 500 }]).satisfied).toBe(false);
    expect(check([{ maxDeliveryAttempts: 5 }]).satisfied).toBe(true);
    const elsewhere = check([{ maxDeliveryAttempts: 5 }, { maxDeliveryAttempts: -1 }]);
    expect(elsewhere.satisfied).toBe(false);
    expect(elsewhere.proposal.addressSettings.map((a) => a.settings.maxDeliveryAttempts)).toEqual([5, 10]);
    expect(check([{ maxDeliveryAttempts: 500 }]).proposal.addressSettings[0]?.settings.maxDeliveryAttempts).toBe(10);
  });

  it('wants maxSizeBytes and pageLimitBytes below the disk when it is known', () => {
    const gib = 1024 ** 3;
    const document = doc({
      addressSettings: [{ match: '#', settings: { maxSizeBytes: 2 * gib, pageLimitBytes: 500 * 1024 ** 2 } }],
    });
    expect(byId(recommend(document, { ...everywhere }), 'paging-limits').satisfied).toBe(true);
    const small = byId(recommend(document, { ...everywhere, diskLimitBytes: gib }), 'paging-limits');
    expect(small.satisfied).toBe(false);
    const settings = small.proposal.addressSettings[0]?.settings;
    expect(settings?.maxSizeBytes).toBeLessThan(gib);
    expect(settings?.pageLimitBytes).toBe(500 * 1024 ** 2);
    expect(settings?.pageFullMessagePolicy).toBe('FAIL');
    expect(byId(recommend(small.proposal, { ...everywhere, diskLimitBytes: gib }), 'paging-limits').satisfied).toBe(
      true,
    );
  });

  it('wants both auto-create flags off at "#" in production', () => {
    const half = doc({ addressSettings: [{ match: '#', settings: { autoCreateQueues: false } }] });
    const found = byId(recommend(half, everywhere), 'no-auto-create-in-production');
    expect(found.satisfied).toBe(false);
    expect(found.proposal.addressSettings[0]?.settings).toEqual({
      autoCreateQueues: false,
      autoCreateAddresses: false,
    });
  });
});
