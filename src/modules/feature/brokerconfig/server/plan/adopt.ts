// Adoption: a first revision written from what the nodes already run, so the first plan against them is empty
// (spec: Broker configuration management). Only what every node shows alike is taken; everything left out is named
// in a note. Settings are read at "#" alone: the broker lists no matches, so "#" is the only one it can be asked about
// without knowing names. Bridges are skipped: 14 of their 27 fields and the credential cannot be read back.
import type { ConfigDivert, ConfigQueue, ConfigRole, ConfigSnapshot } from '@/modules/platform/broker/index.ts';
import {
  addressSettingFields,
  configDocument,
  declaredDivert,
  declaredQueue,
  declaredRole,
  type ConfigDocument,
  type DeclaredDivert,
  type DeclaredQueue,
} from '../model/document.ts';
import { QUEUE_FIELDS, permissionsOf, sameValue } from './compare.ts';

export interface AdoptNode {
  readonly nodeName: string;
  readonly snapshot: ConfigSnapshot;
}

const ROOT = '#';
/** The broker's value of a field it always reports: adopting it would declare nothing anyone chose. */
const BROKER_BROWSE_PAGE_SIZE = 200;
/** The service's own capture taps and the broker's internal names. */
const SKIPPED_PREFIXES = ['flotilla.', 'activemq.', '$sys.'];
const skipped = (name: string | null) => name !== null && SKIPPED_PREFIXES.some((prefix) => name.startsWith(prefix));

const shape = addressSettingFields.shape as Record<string, { safeParse: (value: unknown) => { success: boolean } }>;

function rootSettings(nodes: readonly AdoptNode[], notes: string[]): Record<string, unknown> | null {
  const reads = nodes.map((node) => ({ node: node.nodeName, read: node.snapshot.addressSettings.get(ROOT) }));
  const missing = reads.filter((r) => r.read === undefined).map((r) => r.node);
  if (missing.length > 0) {
    notes.push(`Address settings at "#" were not read on ${missing.join(', ')}: none adopted.`);
    return null;
  }
  const fields = new Set(reads.flatMap((r) => Object.keys(r.read ?? {})));
  const settings: Record<string, unknown> = {};
  for (const field of [...fields].sort()) {
    if (!(field in shape)) continue; // not in the document schema (slowConsumerThresholdMeasurementUnit among them)
    const values = reads.map((r) => r.read?.[field]);
    if (!values.every((value) => sameValue(value, values[0]))) {
      const each = reads.map((r, i) => `${r.node}=${JSON.stringify(values[i] ?? null)}`).join(', ');
      notes.push(`Address setting ${field} at "#" differs between nodes (${each}): left out.`);
      continue;
    }
    const value = values[0];
    if (value === undefined || value === null || value === '') continue;
    if (field === 'managementBrowsePageSize' && sameValue(value, BROKER_BROWSE_PAGE_SIZE)) continue;
    if (!shape[field]?.safeParse(value).success) {
      notes.push(
        `Address setting ${field} at "#" reads ${JSON.stringify(value)}, which the document refuses: left out.`,
      );
      continue;
    }
    settings[field] = value;
  }
  return settings;
}

function rootRoles(nodes: readonly AdoptNode[], notes: string[]): ConfigRole[] | null {
  const reads = nodes.map((node) => ({ node: node.nodeName, roles: node.snapshot.securitySettings.get(ROOT) }));
  const missing = reads.filter((r) => r.roles === undefined).map((r) => r.node);
  if (missing.length > 0) {
    notes.push(`Security settings at "#" were not read on ${missing.join(', ')}: none adopted.`);
    return null;
  }
  const canonical = (roles: readonly ConfigRole[]) =>
    JSON.stringify(
      [...roles].map((r) => [r.name, permissionsOf(r)]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  const first = reads[0]?.roles ?? [];
  if (!reads.every((r) => canonical(r.roles ?? []) === canonical(first))) {
    notes.push('The roles at "#" differ between nodes: left out.');
    return null;
  }
  if (first.length === 0) {
    notes.push('No roles are in force at "#": no security setting adopted (declaring none would lock everyone out).');
    return null;
  }
  if (!first.every((role) => declaredRole.safeParse(role).success)) {
    notes.push('A role name at "#" is not valid in the document (a space or a comma): the roles are left out.');
    return null;
  }
  notes.push('Roles at "#" adopted without view/edit: a setting written at runtime cannot carry them.');
  return [...first];
}

/** Items present on every node and equal there; the rest named in a note. */
function common<T extends { name: string }>(
  nodes: readonly AdoptNode[],
  what: string,
  listOf: (snapshot: ConfigSnapshot) => readonly T[],
  same: (a: T, b: T) => boolean,
  notes: string[],
): T[] {
  const names = [...new Set(nodes.flatMap((node) => listOf(node.snapshot).map((item) => item.name)))].sort();
  const kept: T[] = [];
  for (const name of names) {
    const each = nodes.map((node) => ({
      node: node.nodeName,
      item: listOf(node.snapshot).find((i) => i.name === name),
    }));
    const absentOn = each.filter((e) => e.item === undefined).map((e) => e.node);
    const [first] = each;
    if (absentOn.length > 0 || !first?.item)
      notes.push(`${what} "${name}" is missing on ${absentOn.join(', ')}: left out.`);
    else if (!each.every((e) => e.item && same(first.item as T, e.item)))
      notes.push(`${what} "${name}" differs between nodes: left out.`);
    else kept.push(first.item);
  }
  return kept;
}

const DIVERT_FIELDS = [
  'address',
  'forwardingAddress',
  'exclusive',
  'filter',
  'routingType',
  'transformerClassName',
] as const;

function diverts(nodes: readonly AdoptNode[], notes: string[]): DeclaredDivert[] {
  const ours = (snapshot: ConfigSnapshot) =>
    snapshot.diverts.filter((d) => !skipped(d.name) && !skipped(d.address) && !skipped(d.forwardingAddress));
  const sameDivert = (a: ConfigDivert, b: ConfigDivert) => DIVERT_FIELDS.every((f) => sameValue(a[f], b[f]));
  const adopted: DeclaredDivert[] = [];
  for (const divert of common(nodes, 'Divert', ours, sameDivert, notes)) {
    // A routing name the broker picked differs per node: declared only when every node has the same one.
    const routingNames = new Set(nodes.map((n) => n.snapshot.diverts.find((d) => d.name === divert.name)?.routingName));
    const candidate = {
      name: divert.name,
      address: divert.address,
      forwardingAddress: divert.forwardingAddress,
      ...(routingNames.size === 1 && divert.routingName ? { routingName: divert.routingName } : {}),
      exclusive: divert.exclusive,
      ...(divert.filter ? { filter: divert.filter } : {}),
      routingType: divert.routingType,
      ...(divert.transformerClassName ? { transformerClassName: divert.transformerClassName } : {}),
    };
    const parsed = declaredDivert.safeParse(candidate);
    if (parsed.success) adopted.push(parsed.data);
    else notes.push(`Divert "${divert.name}" does not fit the document: left out.`);
  }
  return adopted;
}

function queues(nodes: readonly AdoptNode[], notes: string[]): DeclaredQueue[] {
  const ours = (snapshot: ConfigSnapshot) =>
    snapshot.queues.filter(
      (q) => !q.temporary && !q.internal && !q.autoCreated && !skipped(q.name) && !skipped(q.address),
    );
  const sameQueue = (a: ConfigQueue, b: ConfigQueue) => QUEUE_FIELDS.every((f) => sameValue(a[f], b[f]));
  const adopted: DeclaredQueue[] = [];
  for (const queue of common(nodes, 'Queue', ours, sameQueue, notes)) {
    const candidate = {
      ...Object.fromEntries(
        QUEUE_FIELDS.flatMap((f): [string, unknown][] => (queue[f] === null ? [] : [[f, queue[f]]])),
      ),
      name: queue.name,
    };
    const parsed = declaredQueue.safeParse(candidate);
    if (parsed.success) adopted.push(parsed.data);
    else notes.push(`Queue "${queue.name}" does not fit the document: left out.`);
  }
  return adopted;
}

export function adopt(nodes: readonly AdoptNode[]): { document: ConfigDocument; notes: string[] } {
  const notes: string[] = [
    'Address and security settings are read at "#" only: the broker lists no matches, so a more specific one is ' +
      'found only by name. Declare the others by hand.',
  ];
  if (nodes.length === 0) return { document: configDocument.parse({}), notes: [...notes, 'No node was read.'] };
  const settings = rootSettings(nodes, notes);
  const roles = rootRoles(nodes, notes);
  const bridgeCount = new Set(nodes.flatMap((n) => n.snapshot.bridges.map((b) => b.name))).size;
  if (bridgeCount > 0) {
    notes.push(
      `${bridgeCount} bridges skipped: 14 of 27 fields and the credential cannot be read; declare them by hand.`,
    );
  }
  const document = configDocument.parse({
    addressSettings: settings && Object.keys(settings).length > 0 ? [{ match: ROOT, settings }] : [],
    securitySettings: roles ? [{ match: ROOT, roles }] : [],
    diverts: diverts(nodes, notes),
    queues: queues(nodes, notes),
  });
  return { document, notes };
}
