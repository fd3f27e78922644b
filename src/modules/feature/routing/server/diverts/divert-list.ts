// The diverts list as it leaves: the routing read merged and paged (divert-rows.ts), then the page's names,
// addresses and filters through the content policy — masked, or in clear for a holder of message:clear on the
// cluster who asked (`clear=true`), a clear answer that showed something audited as VIEW_CLEAR.
import { guardCluster, type TrpcContext } from '@/modules/kernel/access/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { auditClearView, governFields, requireClearAccess } from '@/modules/platform/governance/index.ts';
import { readRoutingViews } from '../live/read-routing.ts';
import { divertRows, pageDivertRows } from './divert-rows.ts';
import type { listDivertsInput } from './diverts.schema.ts';

type Input = ReturnType<(typeof listDivertsInput)['parse']>;

export async function listClusterDiverts(ctx: Pick<TrpcContext, 'runtime' | 'request' | 'grants'>, input: Input) {
  const clusterId = input.clusterId.toLowerCase();
  const clear = input.clear === 'true';
  if (clear) requireClearAccess((await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId })).permissions);
  const read = await readRoutingViews(ctx.runtime, clusterId);
  if (!read) throw new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such cluster.' });
  const page = pageDivertRows(divertRows(read.views), input);
  // Only the page leaves, so only the page is governed.
  const shown = await governFields(ctx.runtime, page.items, ['name', 'address', 'forwardingAddress', 'filter'], {
    clear,
  });
  if (clear)
    await auditClearView(ctx.runtime.prisma, ctx.request, {
      target: `diverts of cluster ${clusterId}`,
      governed: shown.governed,
    });
  return {
    ...page,
    items: shown.rows,
    readAt: read.readAt.toISOString(),
    nodes: read.views.map((view) => ({ nodeId: view.nodeId, nodeName: view.nodeName })),
    failures: read.failures.map(({ nodeId, nodeName, failure }) => ({
      nodeId,
      nodeName,
      kind: failure.kind,
      message: failure.message,
      advice: failure.advice,
    })),
  };
}
