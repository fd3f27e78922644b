// The shapes of the broker command sequence (broker-command.ts): what a command declares, what its estimate and its
// apply may use, and what it answers. Apart from the phases so each phase can name them without importing the
// orchestrator.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { openAudit } from '@/modules/kernel/audit/index.ts';
import type { InternalNotifications } from '@/modules/kernel/core/index.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import type { BrokerWrites, ManagementClient, NativeEndpoint, SendRequest } from '@/modules/platform/broker/index.ts';
import type { NodeFailure } from '@/modules/platform/clusters/index.ts';

export interface CommandRuntime {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  /** Followed so that this process ends what it holds for nodes removed or edited elsewhere. */
  readonly notifications: InternalNotifications;
  readonly settings: { value(key: string): unknown } & Pick<SettingsReader, 'integer'>;
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

/** What `apply` may use: the node's reads and, from the fan-out only, its writes. */
export interface CommandNode extends CommandNodeView {
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

export interface NodeResult {
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

/** The command's audit row, committed PENDING before any broker call (`openAudit` in the audit kernel). */
export type CommandAudit = Awaited<ReturnType<typeof openAudit>>;

/** One node's estimate: a count, undefined when it has nothing to act on, or the failure of the estimate itself. */
export interface Estimated {
  readonly view: CommandNodeView;
  readonly estimate: number | undefined;
  readonly failure: NodeFailure | null;
}

/** A node's identity in every result row. */
export const nodeOf = (view: Pick<CommandNodeView, 'nodeId' | 'nodeName' | 'logicalNode'>) => ({
  nodeId: view.nodeId,
  nodeName: view.nodeName,
  logicalNode: view.logicalNode,
});
