// Drift of one node: each declared item against the node's snapshot (spec: Broker configuration management, item 6).
// The planner starts from the same comparison, so a plan has a step exactly where drift is not IN_SYNC.
import type {
  ConfigBridge,
  ConfigDivert,
  ConfigQueue,
  ConfigRole,
  ConfigSnapshot,
} from '@/modules/platform/broker/index.ts';
import type {
  ConfigDocument,
  DeclaredAddressSetting,
  DeclaredBridge,
  DeclaredDivert,
  DeclaredQueue,
  DeclaredSecuritySetting,
} from '../model/document.ts';
import {
  BRIDGE_UNREADABLE,
  compareAddressSetting,
  compareBridge,
  compareDivert,
  compareQueue,
  compareSecuritySetting,
  liveBridge,
} from './compare.ts';
import type { DriftItem, DriftState, FieldDiff } from './plan-types.ts';

/** A declared item with what the node has for it (undefined: nothing live) and its drift. */
export type NodeItem =
  | {
      kind: 'addressSetting';
      declared: DeclaredAddressSetting;
      live: Readonly<Record<string, unknown>> | undefined;
      drift: DriftItem;
    }
  | { kind: 'securitySetting'; declared: DeclaredSecuritySetting; live: readonly ConfigRole[]; drift: DriftItem }
  | { kind: 'divert'; declared: DeclaredDivert; live: ConfigDivert | undefined; drift: DriftItem }
  | { kind: 'bridge'; declared: DeclaredBridge; live: ConfigBridge | undefined; drift: DriftItem }
  | { kind: 'queue'; declared: DeclaredQueue; live: ConfigQueue | undefined; drift: DriftItem };

const stateOf = (fields: readonly FieldDiff[]): DriftState => (fields.length === 0 ? 'IN_SYNC' : 'DRIFTED');

const UNREAD = 'not read at this match on this node: no step is planned for it';

function addressSettingItem(declared: DeclaredAddressSetting, snapshot: ConfigSnapshot): NodeItem {
  const live = snapshot.addressSettings.get(declared.match);
  const key = declared.match;
  if (live === undefined) {
    return {
      kind: 'addressSetting',
      declared,
      live,
      drift: { kind: 'addressSetting', key, state: 'UNVERIFIABLE', fields: [], note: UNREAD },
    };
  }
  const fields = compareAddressSetting(declared, live);
  // A read always answers (the value in force for the text), so "missing" is: no declared field has a value there
  // (one unset field among set ones is drift of an existing match, not a missing one).
  const unset = (value: unknown) => value === undefined || value === null || value === '';
  const missing = fields.length > 0 && Object.keys(declared.settings).every((field) => unset(live[field]));
  const drift: DriftItem = { kind: 'addressSetting', key, state: missing ? 'MISSING' : stateOf(fields), fields };
  return { kind: 'addressSetting', declared, live, drift };
}

function securitySettingItem(declared: DeclaredSecuritySetting, snapshot: ConfigSnapshot): NodeItem {
  const live = snapshot.securitySettings.get(declared.match);
  const key = declared.match;
  if (live === undefined) {
    const drift: DriftItem = { kind: 'securitySetting', key, state: 'UNVERIFIABLE', fields: [], note: UNREAD };
    return { kind: 'securitySetting', declared, live: [], drift };
  }
  const fields = compareSecuritySetting(declared, live);
  const state = fields.length > 0 && live.length === 0 ? 'MISSING' : stateOf(fields);
  return { kind: 'securitySetting', declared, live, drift: { kind: 'securitySetting', key, state, fields } };
}

function bridgeNote(declared: DeclaredBridge): string {
  const unreadable = BRIDGE_UNREADABLE.filter((field) => declared[field] !== undefined).map((field) =>
    field === 'passwordRef' ? 'password' : field,
  );
  const named = unreadable.length > 0 ? `; declared but not verifiable: ${unreadable.join(', ')}` : '';
  return `only the 13 fields the broker reports are compared (14 of 27, the credential among them, cannot be read)${named}`;
}

export function itemsOfNode(document: ConfigDocument, snapshot: ConfigSnapshot): NodeItem[] {
  const items: NodeItem[] = [
    ...document.addressSettings.map((declared) => addressSettingItem(declared, snapshot)),
    ...document.securitySettings.map((declared) => securitySettingItem(declared, snapshot)),
  ];
  for (const declared of document.diverts) {
    const live = snapshot.diverts.find((divert) => divert.name === declared.name);
    const fields = live ? compareDivert(declared, live) : [];
    const state = live ? stateOf(fields) : 'MISSING';
    items.push({ kind: 'divert', declared, live, drift: { kind: 'divert', key: declared.name, state, fields } });
  }
  for (const declared of document.bridges) {
    const live = liveBridge(snapshot, declared.name);
    const fields = live ? compareBridge(declared, live) : [];
    const drift: DriftItem = {
      kind: 'bridge',
      key: declared.name,
      state: live ? stateOf(fields) : 'MISSING',
      fields,
      note: bridgeNote(declared),
    };
    items.push({ kind: 'bridge', declared, live, drift });
  }
  for (const declared of document.queues) {
    const live = snapshot.queues.find((queue) => queue.name === declared.name);
    const fields = live ? compareQueue(declared, live) : [];
    const state = live ? stateOf(fields) : 'MISSING';
    items.push({ kind: 'queue', declared, live, drift: { kind: 'queue', key: declared.name, state, fields } });
  }
  return items;
}

/** Per declared item: IN_SYNC, DRIFTED (with the fields), MISSING (absent live). */
export function driftOfNode(document: ConfigDocument, snapshot: ConfigSnapshot): DriftItem[] {
  return itemsOfNode(document, snapshot).map((item) => item.drift);
}
