// The channel form's rules: the kind drawn, what is still needed, what is sent, and how a dry run reads.
import { describe, expect, it } from 'vitest';
import { chosenKind, configOfDraft, missingOfDraft, previewOfAnswer } from './channel-draft.ts';
import type { JsonSchema } from './schema-fields.ts';

const webhook: JsonSchema = {
  type: 'object',
  properties: { kind: { const: 'webhook' }, url: { type: 'string' }, secret: { type: 'string' } },
  required: ['kind', 'url'],
};
const kinds = [{ kind: 'webhook' }, { kind: 'slack' }];

describe('channel draft', () => {
  it('draws the kind picked, else the first offered', () => {
    expect(chosenKind(kinds, 'slack')).toEqual({ kind: 'slack' });
    expect(chosenKind(kinds, undefined)).toEqual({ kind: 'webhook' });
    expect(chosenKind(undefined, 'slack')).toBeUndefined();
  });

  it('needs a name, and the required fields only while the configuration is replaced', () => {
    const empty = { name: ' ', replaceConfig: true, schema: webhook, values: {} };
    expect(missingOfDraft(empty)).toEqual(['Name', 'URL']);
    expect(missingOfDraft({ ...empty, replaceConfig: false })).toEqual(['Name']);
    expect(missingOfDraft({ ...empty, name: 'ops', values: { url: 'https://x' } })).toEqual([]);
  });

  it('sends the configuration tagged with its kind, or none to keep the stored one', () => {
    const draft = { name: 'ops', replaceConfig: true, schema: webhook, values: { url: 'https://x' } };
    expect(configOfDraft(draft, 'webhook')).toEqual({ url: 'https://x', kind: 'webhook' });
    expect(configOfDraft({ ...draft, replaceConfig: false }, 'webhook')).toBeUndefined();
    expect(configOfDraft(draft, undefined)).toBeUndefined();
  });

  it('reads a dry run as where it would send', () => {
    expect(previewOfAnswer({ name: 'ops', target: 'https://x', kind: 'webhook' })).toBe(
      'Dry run: “ops” would send to https://x (webhook).',
    );
  });
});
