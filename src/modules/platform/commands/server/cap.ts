// Phase 4 of the broker command sequence: the bulk cap (spec: Broker writes, safety rule 3). A capped command whose
// estimates add up to more than `safety.bulk-cap` is refused without override: the refusal is finished on the audit
// row (REFUSED, with every node's preview) and answered 422 `bulk-cap-exceeded`, and nothing is written.
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { auditDetail } from './audit.ts';
import type { BrokerCommand, CommandAudit, CommandRuntime, NodeResult } from './command-types.ts';
import { bulkCapSetting } from './safety.settings.ts';

/** The cap a command is held to: `safety.bulk-cap` for a capped one, none otherwise. */
export const capOf = (command: Pick<BrokerCommand, 'capped'>, settings: Pick<CommandRuntime['settings'], 'integer'>) =>
  command.capped ? settings.integer(bulkCapSetting) : null;

/** Whether the run is refused: over a cap, and not overridden. */
export const isOverCap = (cap: number | null, affectedCount: number, override: boolean | undefined) =>
  cap !== null && affectedCount > cap && !override;

/** Finishes the audit row as REFUSED and throws 422 when the command is over its cap; otherwise does nothing. */
export async function refuseOverCap(
  audit: CommandAudit,
  command: Pick<BrokerCommand, 'override'>,
  run: {
    readonly preview: readonly NodeResult[];
    readonly skipped: readonly string[];
    readonly affectedCount: number;
    readonly cap: number | null;
  },
): Promise<void> {
  const { preview, skipped, affectedCount, cap } = run;
  if (cap === null || !isOverCap(cap, affectedCount, command.override)) return;
  const error = `${affectedCount} messages is over the bulk cap of ${cap} (safety.bulk-cap); nothing was done`;
  await audit.finish({ outcome: 'REFUSED', nodeDetail: auditDetail(preview, skipped), error });
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
