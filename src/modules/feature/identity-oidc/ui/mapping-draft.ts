// The group-mappings editor's rows as the form holds them, and the PUT body they become. Pure.
export type ScopeKind = 'GLOBAL' | 'ENVIRONMENT' | 'CLUSTER';

export interface MappingDraft {
  readonly key: number;
  readonly groupName: string;
  readonly roleId: string;
  readonly scopeKind: ScopeKind;
  readonly scopeId: string;
}

export interface MappingBody {
  readonly groupName: string;
  readonly roleId: string;
  readonly scope: { readonly kind: ScopeKind; readonly id?: string };
}

export function toBody(drafts: readonly MappingDraft[]): MappingBody[] {
  return drafts.map(({ groupName, roleId, scopeKind, scopeId }) => ({
    groupName: groupName.trim(),
    roleId,
    scope: scopeKind === 'GLOBAL' ? { kind: scopeKind } : { kind: scopeKind, id: scopeId.trim() },
  }));
}

export function toDrafts(mappings: readonly MappingBody[]): MappingDraft[] {
  return mappings.map((mapping, index) => ({
    key: index,
    groupName: mapping.groupName,
    roleId: mapping.roleId,
    scopeKind: mapping.scope.kind,
    scopeId: mapping.scope.id ?? '',
  }));
}

/** A new, empty row with a key no row has. */
export function blankDraft(drafts: readonly MappingDraft[]): MappingDraft {
  const key = Math.max(-1, ...drafts.map((row) => row.key)) + 1;
  return { key, groupName: '', roleId: '', scopeKind: 'GLOBAL', scopeId: '' };
}

/** The rows with one changed. */
export function patchDraft(drafts: readonly MappingDraft[], key: number, patch: Partial<MappingDraft>): MappingDraft[] {
  return drafts.map((row) => (row.key === key ? { ...row, ...patch } : row));
}
