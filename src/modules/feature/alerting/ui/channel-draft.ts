// The channel form's rules, pure so the unit test pins them: which kind's form is drawn, what is still needed before
// a preview or a save, the configuration sent (none when an edit keeps the sealed one) and how a dry run reads.
import { missingOf, type FormValues, type JsonSchema } from './schema-fields.ts';

export interface ChannelDraft {
  readonly name: string;
  /** False while an edit keeps the stored configuration, which cannot be read back. */
  readonly replaceConfig: boolean;
  readonly schema: JsonSchema | undefined;
  readonly values: FormValues;
}

/** The kind picked, or the first the API offers while none is. */
export function chosenKind<Kind extends { readonly kind: string }>(
  kinds: readonly Kind[] | undefined,
  picked: string | undefined,
): Kind | undefined {
  return kinds?.find((item) => item.kind === (picked ?? kinds[0]?.kind));
}

/** Labels of what is still empty: the name, and the configuration's required fields when it is replaced. */
export function missingOfDraft(draft: ChannelDraft): string[] {
  return [
    ...(draft.name.trim() ? [] : ['Name']),
    ...(draft.replaceConfig ? missingOf(draft.schema, draft.values) : []),
  ];
}

/** The configuration to send, tagged with its kind; undefined keeps the stored one. */
export function configOfDraft(draft: ChannelDraft, kind: string | undefined): FormValues | undefined {
  return draft.replaceConfig && kind !== undefined ? { ...draft.values, kind } : undefined;
}

export function previewOfAnswer(answer: { readonly name: string; readonly target: string; readonly kind: string }) {
  return `Dry run: “${answer.name}” would send to ${answer.target} (${answer.kind}).`;
}
