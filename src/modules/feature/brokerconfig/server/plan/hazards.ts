// Hazards of one node's plan, classified from the snapshot before any write (findings §4). Each names what happens,
// with the numbers read, and carries a stable id (`${kind}:${key}:${code}`) that an acknowledgement quotes.
import type { ConfigQueue, ConfigRole, ConfigSnapshot } from '@/modules/platform/broker/index.ts';
import type { ConfigDocument } from '../model/document.ts';
import { sameValue } from './compare.ts';
import { matches, mostSpecific } from './match.ts';
import type { DraftStep, DriftItem, Hazard, HazardLevel, ItemKind } from './plan-types.ts';
import { appliedKey } from './plan-types.ts';
import { rolesOf } from './writes.ts';

export interface HazardContext {
  readonly document: ConfigDocument;
  readonly snapshot: ConfigSnapshot;
  readonly appliedKeys: ReadonlySet<string>;
  readonly serviceRoles?: readonly string[] | undefined;
  readonly serviceAddresses?: readonly string[] | undefined;
  /** Declared items the node did not answer for: no step, but the plan says so. */
  readonly unread?: readonly DriftItem[];
}

type Found = Omit<Hazard, 'id' | 'kind' | 'key'>;

const held = (q: ConfigQueue) => q.messageCount + q.deliveringCount + q.scheduledCount;
const absent = (value: unknown) => value === undefined || value === null || value === '';
const quoted = (value: unknown) => (absent(value) ? 'none' : JSON.stringify(value));
const listed = (names: readonly string[], max = 5) =>
  names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more` : names.join(', ');
/** Fields every address-settings read carries (never null in the broker), so they say nothing about a match. */
const ALWAYS_READ = new Set(['managementBrowsePageSize', 'slowConsumerThresholdMeasurementUnit']);

function queueRemoval(step: DraftStep, ctx: HazardContext, recreated: boolean): Found[] {
  const live = ctx.snapshot.queues.find((q) => q.name === step.key);
  if (!live || (held(live) === 0 && live.consumerCount === 0)) return [];
  const why = recreated ? ' to re-create it' : '';
  const consumers = live.consumerCount > 0 ? `, and disconnects its ${live.consumerCount} consumers` : '';
  return [
    {
      level: 'HIGH',
      code: held(live) > 0 ? 'remove-with-messages' : 'remove-with-consumers',
      message:
        `Destroying queue "${live.name}"${why} deletes its ${held(live)} messages (${live.messageCount} counted, ` +
        `${live.deliveringCount} delivering, ${live.scheduledCount} scheduled) without sending them to a ` +
        `dead-letter address${consumers}.`,
      prevents: 'losing messages and cutting consumers off',
    },
  ];
}

/** What the plan's own matches leave in force for a field at `match` without it: the nearest less specific one. */
function inheritedValue(ctx: HazardContext, field: string, match: string): unknown {
  const others = ctx.document.addressSettings.filter(
    (a) => a.match !== match && !absent((a.settings as Record<string, unknown>)[field]),
  );
  const nearest = mostSpecific(
    others.map((a) => a.match),
    match,
  );
  return nearest === undefined
    ? undefined
    : (others.find((a) => a.match === nearest)?.settings as Record<string, unknown>)[field];
}

/** The live queues with messages whose value of `field` comes from `match` (no more specific declared match sets it). */
function loadedUnder(ctx: HazardContext, field: string, match: string): ConfigQueue[] {
  const rivals = ctx.document.addressSettings
    .filter((a) => a.match !== match && !absent((a.settings as Record<string, unknown>)[field]))
    .map((a) => a.match);
  return ctx.snapshot.queues.filter((q) => held(q) > 0 && mostSpecific([match, ...rivals], q.address) === match);
}

function addressSettingHazards(step: DraftStep, ctx: HazardContext): Found[] {
  const match = step.key;
  const live = ctx.snapshot.addressSettings.get(match) ?? {};
  const own: Record<string, unknown> = step.write.op === 'addAddressSettings' ? step.write.settings : {};
  // Matches merge field by field: a match the plan does not declare still supplies what it holds, "#" at least (its
  // value in force is read on every node), so a field a new match leaves out is inherited, not dropped.
  const rootDeclared = ctx.document.addressSettings.some((a) => a.match === '#');
  const fromRoot = (field: string) =>
    match === '#' || rootDeclared ? undefined : ctx.snapshot.addressSettings.get('#')?.[field];
  const after = (field: string) => own[field] ?? inheritedValue(ctx, field, match) ?? fromRoot(field);
  const found: Found[] = [];

  for (const [field, short, what] of [
    ['deadLetterAddress', 'dla', 'dead-lettered'],
    ['expiryAddress', 'expiry', 'expired'],
  ] as const) {
    const [before, next] = [live[field], after(field)];
    if (absent(before) || sameValue(next, before)) continue;
    if (absent(next)) {
      found.push({
        level: 'HIGH',
        code: `drops-${short}`,
        message:
          `"${match}" reads ${field} ${quoted(before)}; the object written has none and no less specific declared ` +
          `match supplies one (addAddressSettings replaces the whole object), so messages ${what} under "${match}" ` +
          `will be dropped.`,
        prevents: `messages ${what} and lost`,
      });
    }
    const loaded = loadedUnder(ctx, field, match);
    if (loaded.length > 0) {
      const total = loaded.reduce((sum, q) => sum + held(q), 0);
      found.push({
        level: 'HIGH',
        code: `${short}-change-under-load`,
        message:
          `${field} under "${match}" changes from ${quoted(before)} to ${quoted(next)} while ${loaded.length} ` +
          `queues there hold ${total} messages (${listed(loaded.map((q) => `${q.name}: ${held(q)}`))}); messages ` +
          `already moved stay where they are, the next ones go to the new place.`,
        prevents: 'messages split between two dead-letter or expiry addresses, or dropped',
      });
    }
  }

  const attempts = (value: unknown) => (absent(value) ? 10 : Number(value) < 0 ? Infinity : Number(value));
  const [wasAttempts, nextAttempts] = [attempts(live.maxDeliveryAttempts), attempts(after('maxDeliveryAttempts'))];
  if (nextAttempts < wasAttempts) {
    found.push({
      level: 'MEDIUM',
      code: 'max-delivery-lowered',
      message:
        `maxDeliveryAttempts at "${match}" goes from ${wasAttempts === Infinity ? 'unbounded' : wasAttempts} to ` +
        `${nextAttempts}: a message already delivered ${nextAttempts} times goes to the dead-letter address (or is ` +
        `dropped without one) at its next failure, so more of them move at once.`,
      prevents: 'a burst of dead-lettered messages',
    });
  }

  const off = (['autoCreateQueues', 'autoCreateAddresses'] as const).filter(
    (field) => own[field] === false && !sameValue(false, live[field]),
  );
  if (off.length > 0) {
    const covered = ctx.snapshot.addresses.filter((address) => matches(match, address));
    if (covered.length > 0) {
      found.push({
        level: 'MEDIUM',
        code: 'auto-create-off',
        message:
          `${off.join(' and ')} false at "${match}", which covers ${covered.length} live addresses ` +
          `(${listed(covered)}): existing queues stay, but a new queue or address there fails with NOT_FOUND ` +
          `(temporary queues are exempt), and an auto-created one deleted when idle cannot come back.`,
        prevents: 'producers and consumers refused on an address in use',
      });
    }
  }

  const inForce = Object.entries(live).some(([field, value]) => !ALWAYS_READ.has(field) && !absent(value));
  if (step.action !== 'remove' && inForce) found.push(...overridesUnmanaged(step, ctx));
  return found;
}

function overridesUnmanaged(step: DraftStep, ctx: HazardContext): Found[] {
  if (ctx.appliedKeys.has(appliedKey(step.kind, step.key))) return [];
  return [
    {
      level: 'LOW',
      code: 'overrides-unmanaged',
      message:
        `A value Flotilla did not write is in force at "${step.key}" (broker.xml or another tool). This write ` +
        `overrides it; if it comes from broker.xml, a later removal by Flotilla cannot bring it back until the ` +
        `broker restarts or reloads its configuration.`,
      prevents: 'an override that a removal cannot undo',
    },
  ];
}

const KEPT = ['manage', 'consume', 'browse', 'send'] as const;

function securityHazards(step: DraftStep, ctx: HazardContext): Found[] {
  const match = step.key;
  const found: Found[] = [];
  const written = step.write.op === 'addSecuritySettings' ? step.write.roles : [];

  for (const role of written) {
    const wider = written.filter((other) => other.name !== role.name && other.name.includes(role.name));
    for (const other of wider) {
      const gained = (['manage', 'createAddress', 'deleteAddress'] as const).filter((p) => other[p] && !role[p]);
      found.push({
        level: 'HIGH',
        code: 'role-substring',
        message:
          `Role "${role.name}" is a substring of "${other.name}" at "${match}": the broker tests manage, ` +
          `createAddress and deleteAddress with a substring search, so "${role.name}" gets ` +
          `${gained.length > 0 ? gained.join(', ') : 'whatever of those "' + other.name + '" is given'} too.`,
        prevents: 'granting management permissions to the wrong role',
      });
    }
  }

  const probes = [...new Set([...(ctx.serviceAddresses ?? []), '#'])].filter((address) => matches(match, address));
  const serviceRoles = ctx.serviceRoles ?? ctx.snapshot.serviceUser?.roles;
  if (probes.length > 0 && serviceRoles === undefined) {
    found.push({
      level: 'LOW',
      code: 'lockout-unchecked',
      message: `The service user's roles are unknown (listUser gave nothing), so whether the roles at "${match}" lock it out of ${listed(probes)} was not checked.`,
    });
  }
  if (probes.length > 0 && serviceRoles !== undefined) {
    const declared = ctx.document.securitySettings;
    const has = (roles: readonly ConfigRole[], permission: (typeof KEPT)[number]) =>
      roles.some((r) => serviceRoles.includes(r.name) && r[permission]);
    const losses: string[] = [];
    for (const address of probes) {
      const winner = mostSpecific(
        declared.map((s) => s.match),
        address,
      );
      if (winner === undefined || (step.action !== 'remove' && winner !== match)) continue;
      const afterRoles = rolesOf(declared.find((s) => s.match === winner) ?? { match: winner, roles: [] });
      const before = ctx.snapshot.securitySettings.get(address) ?? ctx.snapshot.securitySettings.get(match) ?? [];
      const lost = KEPT.filter((p) => has(before, p) && !has(afterRoles, p));
      if (lost.length > 0) losses.push(`${lost.join(', ')} at "${address}"`);
    }
    if (losses.length > 0) {
      const user = ctx.snapshot.serviceUser ? ` "${ctx.snapshot.serviceUser.username}"` : '';
      found.push({
        level: 'HIGH',
        code: 'locks-out-service',
        message:
          `This locks out the service's own user${user} (roles ${serviceRoles.join(', ') || 'none'}): it loses ` +
          `${losses.join('; ')}. The most specific match supplies every permission and nothing is inherited; the ` +
          `change takes effect at once.`,
        prevents: 'the service losing access to the addresses it uses',
      });
    }
  }

  const live = ctx.snapshot.securitySettings.get(match) ?? [];
  if (step.action !== 'remove' && live.length > 0) found.push(...overridesUnmanaged(step, ctx));
  return found;
}

function queueFilter(step: DraftStep): Found[] {
  const change = step.fields.find((f) => f.field === 'filter');
  if (step.write.op !== 'updateQueue' || !change) return [];
  return [
    {
      level: 'HIGH',
      code: 'filter-runtime-only',
      message:
        `The filter of queue "${step.key}" changes from ${quoted(change.live)} to ${quoted(change.declared)} at ` +
        `runtime only: the broker journals the old filter and restores it at the next restart.`,
      prevents: 'a filter that silently comes back after a restart',
    },
  ];
}

function recreateGap(step: DraftStep, ctx: HazardContext): Found[] {
  if (step.kind === 'bridge') {
    const queueName = step.destinations[0] ?? '';
    const queue = ctx.snapshot.queues.find((q) => q.name === queueName);
    const waiting = queue ? ` (${held(queue)} there now)` : '';
    return [
      {
        level: 'MEDIUM',
        code: 'recreate-gap',
        message:
          `The broker cannot update a bridge: between destroying and re-creating "${step.key}" messages wait in ` +
          `queue "${queueName}"${waiting}, and if the new bridge fails (the broker answers 200 anyway) they keep ` +
          `waiting until the next apply.`,
        prevents: 'messages stuck behind a missing bridge',
      },
    ];
  }
  return [
    {
      level: 'MEDIUM',
      code: 'recreate-gap',
      message:
        `Between destroying and re-creating divert "${step.key}", messages sent to "${step.destinations[0] ?? ''}" ` +
        `are not diverted.`,
      prevents: 'messages that miss the divert',
    },
  ];
}

function hazardsOfStep(step: DraftStep, steps: readonly DraftStep[], ctx: HazardContext): Found[] {
  const recreated = step.action === 'remove' && steps.some((s) => s.id === `${step.kind}:${step.key}:create`);
  switch (step.kind) {
    case 'addressSetting':
      return addressSettingHazards(step, ctx);
    case 'securitySetting':
      return securityHazards(step, ctx);
    case 'queue':
      return step.action === 'remove' ? queueRemoval(step, ctx, recreated) : queueFilter(step);
    case 'divert':
    case 'bridge':
      return recreated ? recreateGap(step, ctx) : [];
  }
}

const withId = (kind: ItemKind, key: string, found: Found): Hazard => ({
  id: `${kind}:${key}:${found.code}`,
  kind,
  key,
  ...found,
});

const RANK: Record<HazardLevel, number> = { HIGH: 0, MEDIUM: 1, LOW: 2 };

/** Every hazard of the plan (High first), and the ids each step carries. */
export function classifyHazards(
  steps: readonly DraftStep[],
  ctx: HazardContext,
): { hazards: Hazard[]; idsByStep: Map<string, string[]> } {
  const byId = new Map<string, Hazard>();
  const idsByStep = new Map<string, string[]>();
  for (const step of steps) {
    const hazards = hazardsOfStep(step, steps, ctx).map((found) => withId(step.kind, step.key, found));
    for (const hazard of hazards) byId.set(hazard.id, hazard);
    idsByStep.set(step.id, [...new Set(hazards.map((h) => h.id))]);
  }
  for (const item of ctx.unread ?? []) {
    const hazard = withId(item.kind, item.key, {
      level: 'LOW',
      code: 'unread',
      message: `"${item.key}" was not read on this node, so no step is planned for it; plan again.`,
    });
    byId.set(hazard.id, hazard);
  }
  const hazards = [...byId.values()].sort((a, b) => RANK[a.level] - RANK[b.level] || a.id.localeCompare(b.id));
  return { hazards, idsByStep };
}
