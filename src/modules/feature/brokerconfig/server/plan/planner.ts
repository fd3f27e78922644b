// The plan of one node (spec: Configuration apply): a step for every declared item that is MISSING or DRIFTED, and a
// removal for each item Flotilla applied here earlier that is no longer declared and still live. Nothing else is ever
// removed: a match or queue Flotilla did not write belongs to broker.xml or to someone else. Order: settings first
// (queues created after them get their DLA and roles at once), then queues, diverts on them, bridges from them;
// removals last in the reverse order, so nothing is left pointing at a queue that is gone.
import type { ConfigSnapshot } from '@/modules/platform/broker/index.ts';
import type { ConfigDocument } from '../model/document.ts';
import { QUEUE_IMMUTABLE, liveBridge } from './compare.ts';
import { itemsOfNode, type NodeItem } from './drift.ts';
import { classifyHazards } from './hazards.ts';
import type { DraftStep, FieldDiff, ItemKind, NodePlan, StepAction } from './plan-types.ts';
import { ITEM_KINDS, appliedKey } from './plan-types.ts';
import { addressSettingsObject, bridgeWrite, divertUpdate, divertWrite, queueWrite, rolesOf } from './writes.ts';

export interface PlanNodeInput {
  readonly document: ConfigDocument;
  readonly snapshot: ConfigSnapshot;
  /** `${kind}:${key}` of the items Flotilla applied earlier on this node (the only ones it may remove). */
  readonly appliedKeys: ReadonlySet<string>;
  readonly node: { readonly nodeId: string; readonly nodeName: string };
  /** The service user's roles, when known other than through the snapshot's listUser. */
  readonly serviceRoles?: readonly string[];
  /** The addresses the service itself uses (notifications, capture, management): the lock-out check covers them. */
  readonly serviceAddresses?: readonly string[];
}

const CREATE_ORDER: readonly ItemKind[] = ['addressSetting', 'securitySetting', 'queue', 'divert', 'bridge'];
const REMOVE_ORDER: readonly ItemKind[] = ['bridge', 'divert', 'queue', 'securitySetting', 'addressSetting'];

const shown = (value: unknown): string =>
  value === null || value === undefined ? 'none' : typeof value === 'string' ? `"${value}"` : JSON.stringify(value);

/** "maxDeliveryAttempts 10 → 5, …" for the first three changed fields. */
function changesInWords(fields: readonly FieldDiff[]): string {
  const words = fields.slice(0, 3).map((f) => `${f.field} ${shown(f.live)} → ${shown(f.declared)}`);
  return fields.length > 3 ? `${words.join(', ')} and ${fields.length - 3} more` : words.join(', ');
}

function step(
  kind: ItemKind,
  key: string,
  action: StepAction,
  rest: Omit<DraftStep, 'id' | 'kind' | 'key' | 'action'>,
): DraftStep {
  return { id: `${kind}:${key}:${action}`, kind, key, action, ...rest };
}

const heldIn = (q: { messageCount: number; deliveringCount: number; scheduledCount: number }) =>
  q.messageCount + q.deliveringCount + q.scheduledCount;

function stepsFor(item: NodeItem): DraftStep[] {
  const { state, fields, key } = item.drift;
  if (state !== 'MISSING' && state !== 'DRIFTED') return [];
  const action: StepAction = state === 'MISSING' ? 'create' : 'update';
  const what = state === 'MISSING' ? '' : `: ${changesInWords(fields)}`;
  switch (item.kind) {
    case 'addressSetting': {
      const settings = addressSettingsObject(item.declared);
      const count = Object.keys(settings).length;
      return [
        step('addressSetting', key, action, {
          write: { op: 'addAddressSettings', match: key, settings },
          summary: `Write the whole address-settings object at "${key}" (${count} fields)${what}`,
          fields,
          destinations: [key],
        }),
      ];
    }
    case 'securitySetting': {
      const roles = rolesOf(item.declared);
      return [
        step('securitySetting', key, action, {
          write: { op: 'addSecuritySettings', match: key, roles },
          summary: `Set the roles at "${key}" (${roles.map((r) => r.name).join(', ') || 'none: nobody'})${what}`,
          fields,
          destinations: [key],
        }),
      ];
    }
    case 'queue': {
      const { declared, live } = item;
      const write = queueWrite(declared);
      const destinations = [declared.name, declared.address];
      const create = step('queue', key, 'create', {
        write: { op: 'createQueue', queue: write },
        summary: `Create queue "${key}" on address "${declared.address}" (${declared.routingType}${declared.durable ? ', durable' : ''})`,
        fields,
        destinations,
      });
      if (!live) return [create];
      const immutable = fields.filter((f) => QUEUE_IMMUTABLE.includes(f.field));
      if (immutable.length === 0) {
        const summary = `Update queue "${key}"${what}`;
        return [
          step('queue', key, 'update', { write: { op: 'updateQueue', queue: write }, summary, fields, destinations }),
        ];
      }
      const remove = step('queue', key, 'remove', {
        write: { op: 'destroyQueue', name: key },
        summary: `Destroy queue "${key}" (${heldIn(live)} messages) to re-create it: ${changesInWords(immutable)} cannot be updated`,
        fields,
        destinations: [live.name, live.address],
      });
      return [remove, create];
    }
    case 'divert': {
      const { declared, live } = item;
      const destinations = [declared.address, declared.forwardingAddress];
      const create = step('divert', key, 'create', {
        write: { op: 'createDivert', divert: divertWrite(declared) },
        summary: `Create divert "${key}" from "${declared.address}" to "${declared.forwardingAddress}"`,
        fields,
        destinations,
      });
      if (!live) return [create];
      const recreate =
        fields.some((f) => ['address', 'exclusive', 'routingName'].includes(f.field)) ||
        (live.transformerClassName !== null && declared.transformerClassName === undefined);
      if (!recreate) {
        const write = { op: 'updateDivert' as const, divert: divertUpdate(declared, live) };
        return [
          step('divert', key, 'update', { write, summary: `Update divert "${key}"${what}`, fields, destinations }),
        ];
      }
      const remove = step('divert', key, 'remove', {
        write: { op: 'destroyDivert', name: key },
        summary: `Destroy divert "${key}" to re-create it (address, exclusive, routing name or a removed transformer cannot be updated)${what}`,
        fields,
        destinations: [live.address, live.forwardingAddress],
      });
      return [remove, create];
    }
    case 'bridge': {
      const { declared, live } = item;
      const ref = declared.passwordRef;
      const credential = ref === undefined ? '' : `, password from vault credential "${ref}"`;
      const create = step('bridge', key, 'create', {
        write: { op: 'createBridge', bridge: bridgeWrite(declared) },
        summary: `Create bridge "${key}" from queue "${declared.queueName}"${credential}`,
        fields,
        destinations: [declared.queueName, ...(declared.forwardingAddress ? [declared.forwardingAddress] : [])],
        ...(ref === undefined ? {} : { passwordRef: ref }),
      });
      if (!live) return [create];
      // The broker has no bridge update: any change is destroy + create.
      const remove = step('bridge', key, 'remove', {
        write: { op: 'destroyBridge', name: live.name },
        summary: `Destroy bridge "${key}" to re-create it${what}`,
        fields,
        destinations: [live.queueName, ...(live.forwardingAddress ? [live.forwardingAddress] : [])],
      });
      return [remove, create];
    }
  }
}

/** A removal of an item Flotilla applied, no longer declared and still live (otherwise nothing to do). */
function removalOf(kind: ItemKind, key: string, snapshot: ConfigSnapshot): DraftStep | null {
  const fields: FieldDiff[] = [];
  switch (kind) {
    case 'addressSetting':
      // Settings "live": read at the match (the reader reads applied matches too; the apply forgets a removed key).
      if (!snapshot.addressSettings.has(key)) return null;
      return step(kind, key, 'remove', {
        write: { op: 'removeAddressSettings', match: key },
        summary: `Remove the address settings Flotilla wrote at "${key}"`,
        fields,
        destinations: [key],
      });
    case 'securitySetting':
      if (!snapshot.securitySettings.has(key)) return null;
      return step(kind, key, 'remove', {
        write: { op: 'removeSecuritySettings', match: key },
        summary: `Remove the roles Flotilla wrote at "${key}"`,
        fields,
        destinations: [key],
      });
    case 'divert': {
      const live = snapshot.diverts.find((d) => d.name === key);
      if (!live) return null;
      return step(kind, key, 'remove', {
        write: { op: 'destroyDivert', name: key },
        summary: `Destroy divert "${key}" (no longer declared)`,
        fields,
        destinations: [live.address, live.forwardingAddress],
      });
    }
    case 'bridge': {
      const live = liveBridge(snapshot, key);
      if (!live) return null;
      return step(kind, key, 'remove', {
        write: { op: 'destroyBridge', name: live.name },
        summary: `Destroy bridge "${key}" (no longer declared)`,
        fields,
        destinations: [live.queueName, ...(live.forwardingAddress ? [live.forwardingAddress] : [])],
      });
    }
    case 'queue': {
      const live = snapshot.queues.find((q) => q.name === key);
      if (!live) return null;
      return step(kind, key, 'remove', {
        write: { op: 'destroyQueue', name: key },
        summary: `Destroy queue "${key}" (no longer declared; ${heldIn(live)} messages, ${live.consumerCount} consumers)`,
        fields,
        destinations: [live.name, live.address],
      });
    }
  }
}

function parseAppliedKey(text: string): { kind: ItemKind; key: string } | null {
  const at = text.indexOf(':');
  const kind = ITEM_KINDS.find((k) => k === text.slice(0, at));
  return at > 0 && kind ? { kind, key: text.slice(at + 1) } : null;
}

export function planNode(input: PlanNodeInput): NodePlan {
  const { document, snapshot, appliedKeys, node } = input;
  const items = itemsOfNode(document, snapshot);
  const drafts: DraftStep[] = [];
  for (const kind of CREATE_ORDER) drafts.push(...items.filter((i) => i.kind === kind).flatMap(stepsFor));

  const declared = new Set(items.map((item) => appliedKey(item.kind, item.drift.key)));
  const stale = [...appliedKeys]
    .filter((key) => !declared.has(key))
    .map(parseAppliedKey)
    .filter((parsed) => parsed !== null);
  for (const kind of REMOVE_ORDER) {
    const keys = stale.filter((s) => s.kind === kind).map((s) => s.key);
    for (const key of keys.sort()) {
      const removal = removalOf(kind, key, snapshot);
      if (removal) drafts.push(removal);
    }
  }

  const unread = items.map((item) => item.drift).filter((drift) => drift.state === 'UNVERIFIABLE');
  const { hazards, idsByStep } = classifyHazards(drafts, { ...input, unread });
  return {
    nodeId: node.nodeId,
    nodeName: node.nodeName,
    steps: drafts.map((draft) => ({ ...draft, hazardIds: idsByStep.get(draft.id) ?? [] })),
    hazards,
  };
}
