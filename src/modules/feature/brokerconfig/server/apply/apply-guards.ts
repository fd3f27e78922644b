// What a real apply checks before its first write, each refusal a problem of its own: the plan it previewed (409
// plan-changed), nodes that could not be read (409 node-unreachable), High hazards without acknowledgement (422
// hazard-unacknowledged), bridge credentials the vault lacks (422 secret-missing) and, in an environment that asks
// for one, a second person's approval (409 approval-required).
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { getCluster } from '@/modules/platform/clusters/index.ts';
import type { ClusterPlan } from '../planning/plan-cluster.ts';
import { missingSecrets } from '../store/secrets.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { approvalEnvironmentsOf, BROKERCONFIG_SETTINGS } from '../brokerconfig.settings.ts';

export function refuseChangedPlan(plan: ClusterPlan, previewed: string): void {
  if (plan.hash === previewed) return;
  throw new ProblemError({
    type: 'plan-changed',
    title: 'The plan changed',
    status: 409,
    detail: `The cluster moved since the plan ${previewed.slice(0, 12)} was previewed (the plan is now ${plan.hash.slice(0, 12)}): preview again and review the new plan.`,
  });
}

export function refuseUnreadNodes(plan: Pick<ClusterPlan, 'unread'>): void {
  const [first] = plan.unread;
  if (!first) return;
  throw new ProblemError({
    type: 'node-unreachable',
    title: 'A node could not be read',
    status: 409,
    detail: `${plan.unread.map((node) => node.nodeName).join(', ')} could not be read (${first.failure.message}); nothing was applied. ${first.failure.advice}`,
  });
}

export function refuseUnacknowledged(plan: ClusterPlan, acknowledged: readonly string[]): void {
  const given = new Set(acknowledged);
  const missing = [
    ...new Set(
      plan.nodes.flatMap((node) => node.hazards.filter((hazard) => hazard.level === 'HIGH').map((hazard) => hazard.id)),
    ),
  ].filter((id) => !given.has(id));
  if (missing.length === 0) return;
  throw new ProblemError({
    type: 'hazard-unacknowledged',
    title: 'High hazards not acknowledged',
    status: 422,
    detail: `Acknowledge each High hazard by its id to apply this plan: ${missing.join(', ')}.`,
  });
}

export async function refuseMissingSecrets(prisma: PrismaClient, clusterId: string, plan: ClusterPlan): Promise<void> {
  const refs = plan.document.bridges.flatMap((bridge) => (bridge.passwordRef ? [bridge.passwordRef] : []));
  const missing = await missingSecrets(prisma, clusterId, [...new Set(refs)]);
  if (missing.length === 0) return;
  throw new ProblemError({
    type: 'secret-missing',
    title: 'A bridge credential is missing',
    status: 422,
    detail: `The vault holds no bridge credential named ${missing.join(', ')}: store it (PUT …/config/secrets/{name}) before applying.`,
  });
}

/** Whether the cluster's environment needs a second person; when it does, who approved this plan (not the runner). */
export async function approvalOf(
  prisma: PrismaClient,
  settings: SettingsReader,
  clusterId: string,
  planHash: string,
): Promise<{ required: boolean; approvedBy: string | null }> {
  const cluster = await getCluster(prisma, clusterId);
  const environments = approvalEnvironmentsOf(settings.string(BROKERCONFIG_SETTINGS.approvalEnvironments));
  const required = cluster?.environment ? environments.has(cluster.environment.name) : false;
  if (!required) return { required, approvedBy: null };
  const approval = await prisma.configApproval.findUnique({ where: { clusterId_planHash: { clusterId, planHash } } });
  return { required, approvedBy: approval?.approvedBy ?? null };
}

export function refuseUnapproved(approval: { required: boolean; approvedBy: string | null }, runner: string): void {
  if (!approval.required) return;
  if (approval.approvedBy !== null && approval.approvedBy !== runner) return;
  throw new ProblemError({
    type: 'approval-required',
    title: 'A second person must approve',
    status: 409,
    detail:
      approval.approvedBy === runner
        ? 'You approved this plan yourself: this cluster’s environment needs another person to approve it.'
        : 'This cluster’s environment needs a second person to approve this exact plan (POST …/config/approvals with its hash) before it is applied.',
  });
}
