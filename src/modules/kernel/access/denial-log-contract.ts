// What the denial log is asked (access.denial-log): the refusal handed over, and what the contributing module answers.
// Types only, apart from module.ts and denial-log.ts, so the descriptor can name them without a circle.
import type { Problem, RequestContext } from '@/modules/kernel/core/index.ts';
import type { ProcedureRuntime } from './procedure-context.ts';

/** One refused call: the route it aimed at (a procedure path, or `stream`), the refusal, and the cluster if known. */
export interface Denial {
  readonly route: string;
  readonly problem: Problem;
  /** The error as thrown, so the log can tell a refusal already audited by the work it stopped (a FAILED row). */
  readonly error: Error;
  /** Only a cluster that exists: unknown ids are not kept apart, so probing ids cannot multiply rows. */
  readonly cluster?: DeniedCluster;
}

/** The existing cluster a refusal concerns: its id and name go on the audit row, never to the caller. */
export interface DeniedCluster {
  readonly clusterId: string;
  readonly name: string;
}

export interface DenialLog {
  record(runtime: ProcedureRuntime, request: RequestContext, denial: Denial): Promise<void>;
  /** Set when the caller has caused too many failed, refused, dry-run and denied rows lately: changes are refused. */
  floodRefusal(runtime: ProcedureRuntime, request: RequestContext): Promise<Problem | undefined>;
}

export interface DenialLogContribution {
  readonly load: () => Promise<DenialLog>;
}
