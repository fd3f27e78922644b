'use client';
// What a rule's notifications carry and where they go: its labels, its channels, and whether it is on at all.
import { MultiSelect, Switch, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { RuleDraft } from './rule-draft.ts';

export function RuleDeliveryFields({ draft, set }: { draft: RuleDraft; set: (change: Partial<RuleDraft>) => void }) {
  const trpc = useTRPC();
  const channels = useQuery(trpc.alerting.listChannels.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  return (
    <>
      <Textarea
        label="Labels"
        description="One per line, key=value; copied into every notification"
        autosize
        minRows={2}
        value={draft.labels}
        onChange={(event) => set({ labels: event.currentTarget.value })}
      />
      <MultiSelect
        label="Channels"
        description="Where its firing and resolution are sent"
        placeholder={channels.data?.items.length === 0 ? 'No channels yet' : 'Pick channels'}
        data={(channels.data?.items ?? []).map((channel) => ({
          value: channel.id,
          label: `${channel.name} (${channel.kind})`,
        }))}
        value={draft.channelIds}
        onChange={(channelIds) => set({ channelIds })}
      />
      <Switch
        label="Enabled"
        checked={draft.enabled}
        onChange={(event) => set({ enabled: event.currentTarget.checked })}
      />
    </>
  );
}
