// The state behind the group-mappings form: the rows and default role as edited, the role choices, the save (one PUT
// that replaces the set) and the server's field problems by the field they name.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { blankDraft, patchDraft, toBody, toDrafts, type MappingBody, type MappingDraft } from './mapping-draft.ts';

export interface MappingSet {
  readonly defaultRoleId: string | null;
  readonly mappings: readonly MappingBody[];
}

export function useMappingsForm(providerId: string, stored: MappingSet, onSaved: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const roles = useQuery(trpc.security.groupMappings.roleChoices.queryOptions());
  const [defaultRoleId, setDefaultRoleId] = useState<string | null>(stored.defaultRoleId);
  const [drafts, setDrafts] = useState<MappingDraft[]>(() => toDrafts(stored.mappings));
  const save = useMutation(
    trpc.security.groupMappings.put.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.security.groupMappings.get.pathFilter());
        onSaved();
      },
    }),
  );
  return {
    drafts,
    defaultRoleId,
    setDefaultRoleId,
    roleOptions: (roles.data ?? []).map((role) => ({ value: role.id, label: role.name })),
    save,
    fieldError: (field: string) =>
      save.isError ? problemOf(save.error).errors?.find((error) => error.field === field)?.message : undefined,
    change: (key: number, patch: Partial<MappingDraft>) => setDrafts((rows) => patchDraft(rows, key, patch)),
    add: () => setDrafts((rows) => [...rows, blankDraft(rows)]),
    remove: (key: number) => setDrafts((rows) => rows.filter((candidate) => candidate.key !== key)),
    submit: () => save.mutate({ providerId, defaultRoleId, mappings: toBody(drafts) }),
  };
}
