// Adoption: a live cluster's configuration as a first (or next) revision, from what every serving node shows
// (plan/adopt.ts decides what can be adopted and says what it left out: bridges always). What it cannot read but
// Flotilla applied (its matches other than "#", its bridges) stays declared as the current revision has it, so the
// adopted revision never plans their removal. Saved like any revision.
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { EMPTY_DOCUMENT, type ConfigDocument } from '../model/document.ts';
import { adopt } from '../plan/index.ts';
import { liveNodesOf, readNodes } from '../live/live-nodes.ts';
import { currentRevision, saveRevision } from '../store/revisions.ts';
import type { ConfigRuntime } from '../config-runtime.ts';
import { appliedKeysOf, notFound } from './plan-cluster.ts';
import { refuseUnreadNodes } from '../apply/apply-guards.ts';

/** The adopted document with the current revision's unlistable items Flotilla applied on some node, said in a note. */
function withApplied(
  adopted: ConfigDocument,
  current: { number: number; document: ConfigDocument } | null,
  applied: ReadonlySet<string>,
  notes: string[],
): ConfigDocument {
  if (!current) return adopted;
  const ours = (kind: string, key: string) => key !== '#' && applied.has(`${kind}:${key}`);
  const addressSettings = current.document.addressSettings.filter((item) => ours('addressSetting', item.match));
  const securitySettings = current.document.securitySettings.filter((item) => ours('securitySetting', item.match));
  const bridges = current.document.bridges.filter((item) => ours('bridge', item.name));
  const kept = [
    ...addressSettings.map((item) => `address settings at "${item.match}"`),
    ...securitySettings.map((item) => `roles at "${item.match}"`),
    ...bridges.map((item) => `bridge "${item.name}"`),
  ];
  if (kept.length === 0) return adopted;
  notes.push(
    `Kept as revision ${String(current.number)} declares them, since Flotilla applied them and the broker cannot list them: ${kept.join(', ')}.`,
  );
  return {
    ...adopted,
    addressSettings: [...adopted.addressSettings, ...addressSettings],
    securitySettings: [...adopted.securitySettings, ...securitySettings],
    bridges: [...adopted.bridges, ...bridges],
  };
}

export async function adoptLive(
  runtime: ConfigRuntime,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: { readonly baseRevision: number; readonly comment: string; readonly dryRun: boolean },
) {
  const live = await liveNodesOf(runtime, cluster.id);
  if (!live) throw notFound();
  const reads = await readNodes(live.nodes, EMPTY_DOCUMENT, live.serviceUser);
  refuseUnreadNodes({
    unread: reads.flatMap((read) =>
      read.failure ? [{ nodeId: read.node.nodeId, nodeName: read.node.nodeName, failure: read.failure }] : [],
    ),
  });
  const adopted = adopt(
    reads.flatMap((read) => (read.snapshot ? [{ nodeName: read.node.nodeName, snapshot: read.snapshot }] : [])),
  );
  const [current, applied] = await Promise.all([
    currentRevision(runtime.prisma, cluster.id),
    appliedKeysOf(runtime.prisma, cluster.id),
  ]);
  const document = withApplied(
    adopted.document,
    current,
    new Set([...applied.values()].flatMap((keys) => [...keys])),
    adopted.notes,
  );
  const saved = await saveRevision(runtime, request, cluster, {
    document,
    comment: input.comment,
    baseRevision: input.baseRevision,
    source: 'adopt',
    dryRun: input.dryRun,
  });
  return {
    number: input.dryRun ? null : saved.number,
    dryRun: input.dryRun,
    document,
    notes: adopted.notes,
  };
}
