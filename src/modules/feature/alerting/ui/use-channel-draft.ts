// The state behind the channel dialog: the draft, the kinds the API offers, the preview of the last dry run and
// whether it was saved. Any edit drops the preview, which described the draft as it was.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { chosenKind, configOfDraft, missingOfDraft, previewOfAnswer } from './channel-draft.ts';
import type { ChannelRow } from './channel-row.ts';
import { defaultsOf, type FormValues, type JsonSchema } from './schema-fields.ts';
import { useRefreshChannels } from './use-refresh-channels.ts';

export function useChannelDraft(channel: ChannelRow | undefined) {
  const trpc = useTRPC();
  const refresh = useRefreshChannels();
  const kinds = useQuery(trpc.alerting.channelKinds.queryOptions({}));
  const [name, setName] = useState(channel?.name ?? '');
  const [kind, setKind] = useState<string | undefined>(channel?.kind);
  const [replaceConfig, setReplaceConfig] = useState(!channel);
  const [values, setValues] = useState<FormValues>({});
  const chosen = chosenKind(kinds.data?.items, kind);
  const schema = chosen?.config as JsonSchema | undefined;
  const draft = { name, replaceConfig, schema, values };
  const missing = missingOfDraft(draft);
  const config = configOfDraft(draft, chosen?.kind);
  const create = useMutation(trpc.alerting.createChannel.mutationOptions());
  const update = useMutation(trpc.alerting.updateChannel.mutationOptions());
  const [preview, setPreview] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);

  const run = async (dryRun: boolean) => {
    const body = { name: name.trim(), dryRun, ...(config ? { config } : {}) } as Parameters<
      typeof create.mutateAsync
    >[0];
    const answer = channel ? await update.mutateAsync({ ...body, id: channel.id }) : await create.mutateAsync(body);
    if (dryRun) setPreview(previewOfAnswer(answer));
    else {
      refresh();
      setSaved(true);
    }
  };
  const edited =
    <Value>(set: (value: Value) => void) =>
    (value: Value) => {
      set(value);
      setPreview(undefined);
    };

  return {
    kinds: kinds.data?.items ?? [],
    chosenKind: chosen?.kind ?? '',
    name,
    replaceConfig,
    schema,
    values,
    missing,
    preview,
    saved,
    error: create.error ?? update.error,
    busy: create.isPending || update.isPending,
    setName: edited(setName),
    setReplaceConfig: edited(setReplaceConfig),
    setValues: edited(setValues),
    /** A new kind starts from its own defaults. */
    pickKind: edited((next: string) => {
      setKind(next);
      setValues(defaultsOf(kinds.data?.items.find((item) => item.kind === next)?.config));
    }),
    /** A dry run (the preview) or the save; a refusal shows as the error. */
    submit: (dryRun: boolean) => void run(dryRun).catch(() => undefined),
  };
}
