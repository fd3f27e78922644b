// Adoption: a live cluster's configuration as a first (or next) revision, from what every serving node shows
// (plan/adopt.ts decides what can be adopted and says what it left out: bridges always). Saved like any revision.
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { EMPTY_DOCUMENT } from '../model/document.ts';
import { adopt } from '../plan/index.ts';
import { liveNodesOf, readNodes } from '../live/live-nodes.ts';
import { saveRevision } from '../store/revisions.ts';
import type { ConfigRuntime } from '../config-runtime.ts';
import { notFound } from './plan-cluster.ts';
import { refuseUnreadNodes } from '../apply/apply-guards.ts';

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
  const saved = await saveRevision(runtime, request, cluster, {
    document: adopted.document,
    comment: input.comment,
    baseRevision: input.baseRevision,
    source: 'adopt',
    dryRun: input.dryRun,
  });
  return {
    number: input.dryRun ? null : saved.number,
    dryRun: input.dryRun,
    document: adopted.document,
    notes: adopted.notes,
  };
}
