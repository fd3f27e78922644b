// The broker command sequence: every cluster-wide broker write goes through `runBrokerCommand` (spec: Broker writes,
// safety and audit). The caller's permission on the cluster is the procedure's guard; then one target per logical
// node from the polled serving state; the audit row COMMITTED before any broker call (no transaction is held across
// a network call, and when the row cannot be written nothing is sent); a per-node estimate so the bulk cap sees the
// whole blast radius; a dry run answers WOULD_APPLY per node and writes nothing; over `safety.bulk-cap` without
// override the refusal is audited and answered 422; the fan-out runs under each node's limiter and one node's
// failure never stops the others; the audit row is finished with every node's outcome; the stream signal follows
// the commit. Only this file hands out the broker's write operations (test/architecture/broker-writes.test.ts).
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import { openAudit } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { publishSignal } from '@/modules/kernel/stream/index.ts';
import {
  brokerWrites,
  readManagementLimits,
  sendMessage,
  type BrokerWrites,
  type ManagementClient,
  type NativeEndpoint,
  type SendRequest,
} from '@/modules/platform/broker/index.ts';
import { loadCommandTargets } from './command-targets.ts';
import { managementClientFor, nodeFailureOf, type NodeFailure } from './node-clients.ts';
import { refuseReservedDestinations, reservedAddressesOf } from './reserved-destinations.ts';
import { BULK_CAP_KEY } from './safety.settings.ts';
import { recordWriteOutcome } from '../capabilities/management-evidence.ts';

export interface CommandRuntime {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  readonly settings: { value(key: string): unknown; integer(key: string): number };
}

/** What an estimate may use: reads only. */
export interface CommandNodeView {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly logicalNode: string;
  readonly client: ManagementClient;
  /** The native endpoint (throws with the reason when the node has none), and whether its subscription is live. */
  readonly native: () => NativeEndpoint;
  readonly subscriptionLive: boolean;
}

/** What `apply` may use: the node's reads and, from here only, its writes. */
interface CommandNode extends CommandNodeView {
  readonly writes: BrokerWrites;
  /** The cluster's reported management and notification addresses, for the retries (they leave those out). */
  readonly reservedAddresses: readonly string[];
  readonly send: (request: SendRequest) => Promise<void>;
}

export interface BrokerCommand<Detail = unknown> {
  readonly clusterId: string;
  /** The audit action, `<resource>.<verb>`. */
  readonly action: string;
  /** What it acts on, in words (the queue, the address, the connection). */
  readonly target: string;
  readonly parameters: Record<string, unknown>;
  readonly dryRun: boolean;
  readonly override?: boolean | undefined;
  /** A destructive message operation: refused over the bulk cap without override. */
  readonly capped: boolean;
  /** Only this node (a message operation, a connection close). */
  readonly nodeId?: string | undefined;
  /** The stream topic signalled after the commit. */
  readonly topic: string;
  /**
   * The addresses and queues the user named: where messages go (a send's address, a move's target, a retry's
   * original address) and what is created, deleted or changed (a queue and its address, an address). Refused with
   * 400 before the audit row when one reaches the broker's management, notification or internal addresses. A send
   * through `apply` may only go to one of these.
   */
  readonly destinations?: readonly string[] | undefined;
  /**
   * How many messages (or things) the command would affect on this node; undefined when the node has nothing to
   * act on (the queue is not there), so it is skipped.
   */
  estimate(node: CommandNodeView): Promise<number | undefined>;
  /** Does it; answers how many were affected and anything worth keeping in the audit. */
  apply(node: CommandNode, estimate: number): Promise<{ count: number; detail?: Detail }>;
}

type NodeOutcome = 'WOULD_APPLY' | 'APPLIED' | 'FAILED' | 'NOT_PRESENT';

interface NodeResult {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly logicalNode: string;
  readonly outcome: NodeOutcome;
  readonly estimate: number | null;
  readonly count: number | null;
  readonly detail?: unknown;
  readonly failure: NodeFailure | null;
}

export interface CommandResult {
  readonly auditId: string;
  readonly action: string;
  readonly dryRun: boolean;
  readonly outcome: 'WOULD_APPLY' | 'SUCCEEDED' | 'PARTIAL' | 'FAILED';
  /** The sum of the nodes' estimates: what the cap compares. */
  readonly affectedCount: number;
  /** What the nodes reported doing (0 on a dry run). */
  readonly appliedCount: number;
  readonly cap: number | null;
  readonly nodes: NodeResult[];
}

function clusterGone(): ProblemError {
  return new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such cluster.' });
}

const auditDetail = (nodes: readonly NodeResult[], skipped: readonly string[]) => ({
  nodes: nodes.map(({ nodeName, nodeId, outcome, estimate, count, failure, detail }) => ({
    nodeId,
    nodeName,
    outcome,
    estimate,
    count,
    ...(detail === undefined ? {} : { detail }),
    ...(failure ? { error: `${failure.kind}: ${failure.message}` } : {}),
  })),
  ...(skipped.length > 0 ? { splitBrainSkipped: skipped } : {}),
});

export async function runBrokerCommand<Detail>(
  runtime: CommandRuntime,
  request: RequestContext,
  command: BrokerCommand<Detail>,
): Promise<CommandResult> {
  const found = await loadCommandTargets(runtime.prisma, command.clusterId, command.nodeId);
  if (!found) throw clusterGone();
  const destinations = command.destinations ?? [];
  const reservedAddresses = await reservedAddressesOf(runtime.prisma, command.clusterId);
  refuseReservedDestinations(reservedAddresses, destinations);
  const cap = command.capped ? runtime.settings.integer(BULK_CAP_KEY) : null;
  // Committed before any broker call; when it cannot be written this throws and nothing is sent.
  const audit = await openAudit(runtime.prisma, request, {
    action: command.action,
    target: command.target,
    parameters: { ...command.parameters, ...(command.override ? { override: true } : {}) },
    dryRun: command.dryRun,
    cluster: { id: found.clusterId, name: found.clusterName },
  }).catch((error: unknown) => {
    console.error(`[commands] cannot write the audit row of ${command.action}; nothing was sent:`, error);
    throw new ProblemError({
      type: 'audit-unavailable',
      title: 'Not done: the audit row could not be written',
      status: 503,
      detail: `Flotilla writes the audit row of every broker command before it calls a broker; it could not, so nothing was sent to any node. Try again when the database accepts writes.`,
    });
  });

  const limits = readManagementLimits((key) => runtime.settings.value(key));
  const views = found.targets.map((target): CommandNodeView => ({
    nodeId: target.nodeId,
    nodeName: target.nodeName,
    logicalNode: target.logicalNode,
    client: managementClientFor(target.nodeId, target.endpoint, limits),
    native: target.native,
    subscriptionLive: target.subscriptionLive,
  }));
  const base = (view: CommandNodeView) => ({
    nodeId: view.nodeId,
    nodeName: view.nodeName,
    logicalNode: view.logicalNode,
  });

  const estimated = await Promise.all(
    views.map(async (view) => {
      try {
        return { view, estimate: await command.estimate(view), failure: null };
      } catch (error) {
        return { view, estimate: undefined, failure: nodeFailureOf(error, view.client.nodeKey) };
      }
    }),
  );
  const affectedCount = estimated.reduce((sum, node) => sum + (node.estimate ?? 0), 0);
  const preview = estimated.map(({ view, estimate, failure }): NodeResult => ({
    ...base(view),
    outcome: failure ? 'FAILED' : estimate === undefined ? 'NOT_PRESENT' : 'WOULD_APPLY',
    estimate: estimate ?? null,
    count: null,
    failure,
  }));

  if (command.dryRun) {
    await audit.finish({ outcome: 'SUCCEEDED', nodeDetail: auditDetail(preview, found.skipped) });
    return {
      auditId: audit.id,
      action: command.action,
      dryRun: true,
      outcome: 'WOULD_APPLY',
      affectedCount,
      appliedCount: 0,
      cap,
      nodes: preview,
    };
  }

  if (cap !== null && affectedCount > cap && !command.override) {
    const error = `${affectedCount} messages is over the bulk cap of ${cap} (safety.bulk-cap); nothing was done`;
    await audit.finish({ outcome: 'REFUSED', nodeDetail: auditDetail(preview, found.skipped), error });
    throw new ProblemError({
      type: 'bulk-cap-exceeded',
      title: 'Over the bulk cap',
      status: 422,
      detail: `${error}. Preview with dryRun=true, then repeat with override=true to go ahead.`,
      affectedCount,
      cap,
      auditId: audit.id,
    });
  }

  // Each node's result lands on the PENDING audit row as it comes: a long run shows its progress in the audit log.
  const sofar = new Map(preview.map((node) => [node.nodeId, node]));
  const reportProgress = async (node: NodeResult) => {
    sofar.set(node.nodeId, node);
    await audit.progress(auditDetail([...sofar.values()], found.skipped)).catch(() => undefined);
    return node;
  };
  const nodes = await Promise.all(
    estimated.map(async ({ view, estimate, failure }): Promise<NodeResult> => {
      if (failure || estimate === undefined) {
        return { ...base(view), outcome: failure ? 'FAILED' : 'NOT_PRESENT', estimate: null, count: null, failure };
      }
      const node: CommandNode = {
        ...view,
        writes: brokerWrites,
        reservedAddresses,
        send: async (message) => {
          // Only to an address checked before the audit row (see `destinations`).
          if (!destinations.includes(message.address))
            throw new Error(`send to ${message.address}: not among the command's checked destinations`);
          await sendMessage(view.native(), message);
        },
      };
      try {
        const { count, detail } = await command.apply(node, estimate);
        return await reportProgress({
          ...base(view),
          outcome: 'APPLIED',
          estimate,
          count,
          failure: null,
          ...(detail === undefined ? {} : { detail }),
        });
      } catch (error) {
        return reportProgress({
          ...base(view),
          outcome: 'FAILED',
          estimate,
          count: null,
          failure: nodeFailureOf(error, view.client.nodeKey),
        });
      }
    }),
  );
  const applied = nodes.filter((node) => node.outcome === 'APPLIED');
  const failed = nodes.filter((node) => node.outcome === 'FAILED');
  const outcome = failed.length === 0 && applied.length > 0 ? 'SUCCEEDED' : applied.length > 0 ? 'PARTIAL' : 'FAILED';
  const appliedCount = applied.reduce((sum, node) => sum + (node.count ?? 0), 0);
  await audit.finish({
    outcome: outcome === 'FAILED' && failed.length === 0 ? 'SUCCEEDED' : outcome,
    nodeDetail: auditDetail(nodes, found.skipped),
    ...(failed.length > 0
      ? { error: failed.map((node) => `${node.nodeName}: ${node.failure?.message ?? 'failed'}`).join('; ') }
      : {}),
  });
  // After the commit, so a screen that refetches on the signal reads the finished row.
  await publishSignal(runtime.bus, command.topic, command.clusterId).catch(() => undefined);
  // What the run proved of MANAGEMENT_WRITE: the ledger learns from real writes, not only from the recheck.
  const learned = await recordWriteOutcome(runtime.db.pool, command.clusterId, {
    applied: applied.map((node) => node.nodeName),
    failed: failed.map((node) => ({
      node: node.nodeName,
      kind: node.failure?.kind ?? 'broker-error',
      message: node.failure?.message ?? '',
      advice: node.failure?.advice ?? '',
      snippet: node.failure?.configSnippet ?? null,
    })),
  }).catch(() => false);
  if (learned) await publishSignal(runtime.bus, 'topology', command.clusterId).catch(() => undefined);
  if (applied.length === 0 && failed.length > 0) {
    throw new ProblemError({
      type: 'broker-command-failed',
      title: 'No node did it',
      status: 502,
      detail:
        `Every node failed: ${failed.map((node) => `${node.nodeName}: ${node.failure?.message ?? ''}`).join('; ')}. ${failed[0]?.failure?.advice ?? ''}`.trim(),
      nodes,
      configSnippet: failed[0]?.failure?.configSnippet ?? null,
      auditId: audit.id,
    });
  }
  // Nothing anywhere to act on (no node has the queue) is done, with every node saying so.
  return {
    auditId: audit.id,
    action: command.action,
    dryRun: false,
    outcome: outcome === 'FAILED' ? 'SUCCEEDED' : outcome,
    affectedCount,
    appliedCount,
    cap,
    nodes,
  };
}
