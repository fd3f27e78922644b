'use client';
// The rule editor's state and calls: the draft and how it changes, the condition kinds the API offers (the picked
// one's parameter schema), what the API would take, and save and delete, which go back to the rules list when done.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { draftOf, EMPTY_DRAFT, inputOf, type RuleDraft } from './rule-draft.ts';
import { defaultsOf, type JsonSchema } from './schema-fields.ts';

export type Rule = RouterOutputs['alerting']['getRule'];

export function useRuleEditor(rule: Rule | undefined) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<RuleDraft>(() => (rule ? draftOf(rule) : EMPTY_DRAFT));
  const set = (change: Partial<RuleDraft>) => setDraft((current) => ({ ...current, ...change }));
  const conditions = useQuery(trpc.alerting.conditions.queryOptions({})).data?.items ?? [];
  const condition = conditions.find((item) => item.kind === draft.kind);
  const schema = condition?.params as JsonSchema | undefined;
  const { input, missing } = inputOf(draft, schema);
  const leave = () => router.push('/alerts/rules');
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.listRules.queryKey() });
    leave();
  };
  const create = useMutation(trpc.alerting.createRule.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.alerting.updateRule.mutationOptions({ onSuccess: done }));
  const remove = useMutation(trpc.alerting.deleteRule.mutationOptions({ onSuccess: done }));
  return {
    draft,
    set,
    conditions,
    condition,
    schema,
    input,
    missing,
    /** A new condition kind starts from its parameters' defaults. */
    pickCondition: (kind: string | null) => {
      const picked = conditions.find((item) => item.kind === kind);
      set({ kind, params: defaultsOf(picked?.params) });
    },
    save: () => {
      if (!input) return;
      if (rule) update.mutate({ ...input, id: rule.id });
      else create.mutate(input);
    },
    saving: create.isPending || update.isPending,
    remove: () => rule && remove.mutate({ id: rule.id }),
    saveError: create.error ?? update.error ?? remove.error,
    leave,
  };
}
