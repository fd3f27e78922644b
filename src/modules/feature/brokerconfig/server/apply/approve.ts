// A second person's approval of one previewed plan (by its hash), where the cluster's environment needs one. The plan
// is computed again: only the plan in force now can be approved. Audited like the apply it allows.
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import type { ConfigRuntime } from '../config-runtime.ts';
import { planCluster } from '../planning/plan-cluster.ts';
import { refuseChangedPlan } from './apply-guards.ts';

export async function approvePlan(
  runtime: ConfigRuntime,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: { readonly planHash: string; readonly dryRun: boolean },
) {
  const plan = await planCluster(runtime, cluster.id);
  await audited(
    runtime.prisma,
    request,
    {
      action: 'config.apply.approve',
      target: `revision ${String(plan.revision)}`,
      parameters: { plan: input.planHash, revision: plan.revision },
      dryRun: input.dryRun,
      cluster,
    },
    async (tx) => {
      refuseChangedPlan(plan, input.planHash);
      if (input.dryRun) return { result: undefined };
      const row = { approvedBy: request.actor.name, approvedAt: new Date() };
      await tx.configApproval.upsert({
        where: { clusterId_planHash: { clusterId: cluster.id, planHash: input.planHash } },
        create: { clusterId: cluster.id, planHash: input.planHash, ...row },
        update: row,
      });
      return { result: undefined };
    },
  );
  return { planHash: input.planHash, approvedBy: request.actor.name, dryRun: input.dryRun };
}
