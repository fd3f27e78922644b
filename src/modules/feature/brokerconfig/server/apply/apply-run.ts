// Configuration apply (spec: States and transitions, Configuration apply). One apply per cluster at a time (a session
// advisory lock on its own connection; a second is refused with 409 apply-in-progress). The plan is computed again
// and must carry the hash the caller previewed; then the guards (apply-guards.ts). The canary node (the first)
// receives every step, one command each, and is read back: its plan must now be empty before the next node is
// touched. The first failure halts the run; nothing is rolled back, and running the new plan converges. Only what
// Flotilla applied is ever recorded as removable. Drift is evaluated again at the end, whatever happened.
import { randomUUID } from 'node:crypto';
import { tryLockSession, unlockSession } from '@/base/advisory-lock.ts';
import { openAudit } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { publishSignal } from '@/modules/kernel/stream/index.ts';
import type { ConfigRuntime } from '../config-runtime.ts';
import { planNode, type NodePlan } from '../plan/index.ts';
import { appliedKeysOf, planCluster, type ClusterPlan } from '../planning/plan-cluster.ts';
import { readNode, type LiveNode } from '../live/live-nodes.ts';
import { evaluateDrift } from '../drift/evaluate-drift.ts';
import {
  approvalOf,
  refuseChangedPlan,
  refuseMissingSecrets,
  refuseUnacknowledged,
  refuseUnapproved,
  refuseUnreadNodes,
} from './apply-guards.ts';
import { runStep, type StepOutcome } from './run-step.ts';

export interface ApplyInput {
  readonly planHash: string;
  readonly acknowledge: readonly string[];
  readonly dryRun: boolean;
}

interface NodeProgress {
  nodeId: string;
  nodeName: string;
  outcome: 'WOULD_APPLY' | 'APPLIED' | 'UNCHANGED' | 'HALTED' | 'NOT_REACHED';
  steps: StepOutcome[];
  readBack: string | null;
}

function applyInProgress(): ProblemError {
  return new ProblemError({
    type: 'apply-in-progress',
    title: 'Another apply is running',
    status: 409,
    detail: 'A configuration apply is already running on this cluster; wait for it to end, then preview again.',
  });
}

/** What a JSON column keeps of the progress (plain data). */
const asJson = (value: readonly NodeProgress[]): object => JSON.parse(JSON.stringify(value)) as object;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Holds the cluster's apply lock around `work`; refuses at once when another holder has it. */
async function underApplyLock<T>(runtime: ConfigRuntime, clusterId: string, work: () => Promise<T>): Promise<T> {
  const connection = await runtime.db.pool.connect();
  try {
    if (!(await tryLockSession(connection, 'brokerconfig.apply', clusterId))) throw applyInProgress();
    try {
      return await work();
    } finally {
      await unlockSession(connection, 'brokerconfig.apply', clusterId).catch(() => undefined);
    }
  } finally {
    connection.release();
  }
}

async function recordApplied(
  runtime: ConfigRuntime,
  clusterId: string,
  node: NodePlan,
  stepId: string,
  revision: number,
) {
  const step = node.steps.find((one) => one.id === stepId);
  if (!step) return;
  const where = { clusterId_nodeId_kind_key: { clusterId, nodeId: node.nodeId, kind: step.kind, key: step.key } };
  if (step.action === 'remove')
    await runtime.prisma.configAppliedItem.deleteMany({ where: where.clusterId_nodeId_kind_key });
  else
    await runtime.prisma.configAppliedItem.upsert({
      where,
      create: { ...where.clusterId_nodeId_kind_key, revision, appliedAt: new Date() },
      update: { revision, appliedAt: new Date() },
    });
}

/** The node read again: what its plan still holds (nothing, when every step took). */
async function readBack(runtime: ConfigRuntime, plan: ClusterPlan, live: LiveNode): Promise<string | null> {
  const applied = (await appliedKeysOf(runtime.prisma, plan.clusterId)).get(live.nodeId) ?? new Set<string>();
  const read = await readNode(live, plan.document, plan.serviceUser, applied);
  if (!read.snapshot) return `the read-back failed: ${read.failure?.message ?? 'no answer'}`;
  const left = planNode({
    document: plan.document,
    snapshot: read.snapshot,
    appliedKeys: applied,
    node: { nodeId: live.nodeId, nodeName: live.nodeName },
  }).steps;
  return left.length === 0 ? null : `the read-back still differs: ${left.map((step) => step.summary).join('; ')}`;
}

export async function applyConfiguration(
  runtime: ConfigRuntime,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: ApplyInput,
) {
  return underApplyLock(runtime, cluster.id, async () => {
    const plan = await planCluster(runtime, cluster.id);
    const audit = await openAudit(runtime.prisma, request, {
      action: 'config.apply',
      target: `revision ${String(plan.revision)}`,
      parameters: { plan: input.planHash, revision: plan.revision, acknowledged: input.acknowledge },
      dryRun: input.dryRun,
      cluster,
    });
    let approval: Awaited<ReturnType<typeof approvalOf>>;
    try {
      refuseChangedPlan(plan, input.planHash);
      refuseUnreadNodes(plan);
      refuseUnacknowledged(plan, input.acknowledge);
      await refuseMissingSecrets(runtime.prisma, cluster.id, plan);
      approval = await approvalOf(runtime.prisma, runtime.settings, cluster.id, plan.hash);
      if (!input.dryRun) refuseUnapproved(approval, request.actor.name);
    } catch (error) {
      await audit.finish({ outcome: 'REFUSED', error: messageOf(error) });
      throw error;
    }
    const progress: NodeProgress[] = plan.nodes.map((node) => ({
      nodeId: node.nodeId,
      nodeName: node.nodeName,
      outcome: input.dryRun ? 'WOULD_APPLY' : 'NOT_REACHED',
      steps: [],
      readBack: null,
    }));
    if (input.dryRun) {
      await audit.finish({
        outcome: 'SUCCEEDED',
        nodeDetail: Object.fromEntries(progress.map((node) => [node.nodeName, 'WOULD_APPLY'])),
      });
      return {
        runId: null,
        auditId: audit.id,
        dryRun: true,
        status: 'WOULD_APPLY' as const,
        revision: plan.revision,
        planHash: plan.hash,
        nodes: progress,
      };
    }
    const runId = randomUUID();
    await runtime.prisma.configApplyRun.create({
      data: {
        id: runId,
        clusterId: cluster.id,
        revision: plan.revision,
        planHash: plan.hash,
        status: 'RUNNING',
        actor: request.actor.name,
        approvedBy: approval.approvedBy,
        auditId: audit.id,
        progress: asJson(progress),
        startedAt: new Date(),
      },
    });
    const halted = await runNodes(runtime, request, plan, runId, progress);
    const status: 'HALTED' | 'SUCCEEDED' = halted ? 'HALTED' : 'SUCCEEDED';
    await runtime.prisma.configApplyRun.update({
      where: { id: runId },
      data: { status, progress: asJson(progress), error: halted, finishedAt: new Date() },
    });
    await audit.finish({
      outcome: halted ? (progress.some((node) => node.outcome === 'APPLIED') ? 'PARTIAL' : 'FAILED') : 'SUCCEEDED',
      nodeDetail: Object.fromEntries(progress.map((node) => [node.nodeName, node.outcome])),
      ...(halted ? { error: halted } : {}),
    });
    await evaluateDrift(runtime, cluster.id).catch(() => undefined);
    await publishSignal(runtime.bus, 'config', cluster.id).catch(() => undefined);
    return {
      runId,
      auditId: audit.id,
      dryRun: false,
      status,
      error: halted,
      revision: plan.revision,
      planHash: plan.hash,
      nodes: progress,
    };
  });
}

/** Node after node, canary first; answers why it halted, or null when every node converged. */
async function runNodes(
  runtime: ConfigRuntime,
  request: RequestContext,
  plan: ClusterPlan,
  runId: string,
  progress: NodeProgress[],
): Promise<string | null> {
  for (const [index, node] of plan.nodes.entries()) {
    const entry = progress[index] as NodeProgress;
    const live = plan.reads.find((read) => read.node.nodeId === node.nodeId)?.node;
    if (!live) continue;
    if (node.steps.length === 0) {
      entry.outcome = 'UNCHANGED';
      continue;
    }
    for (const step of node.steps) {
      const outcome = await runStep(
        runtime,
        request,
        {
          clusterId: plan.clusterId,
          nodeId: node.nodeId,
          runId,
          revision: plan.revision,
          planHash: plan.hash,
          document: plan.document,
        },
        step,
      );
      entry.steps.push(outcome);
      await runtime.prisma.configApplyRun.update({ where: { id: runId }, data: { progress: asJson(progress) } });
      if (outcome.outcome === 'FAILED') {
        entry.outcome = 'HALTED';
        return `${node.nodeName}: ${step.summary} failed: ${outcome.error ?? 'no reason given'}`;
      }
      await recordApplied(runtime, plan.clusterId, node, step.id, plan.revision);
    }
    entry.readBack = await readBack(runtime, plan, live);
    if (entry.readBack) {
      entry.outcome = 'HALTED';
      return `${node.nodeName}: ${entry.readBack}`;
    }
    entry.outcome = 'APPLIED';
  }
  return null;
}
