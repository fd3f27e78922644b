// The broker command sequence: every cluster-wide broker write goes through `runBrokerCommand` (spec: Broker writes,
// safety and audit; ADR 15). The caller's permission on the cluster is the procedure's guard; then, each phase in
// its own file:
// 1. resolve targets (resolve-targets.ts): one per logical node from the polled serving state, or the node named;
//    a reserved destination refused with 400;
// 2. audit (audit.ts): the row COMMITTED as PENDING before any broker call; when it cannot be written nothing is sent;
// 3. estimate (estimate.ts): every node's count, reads only, so the cap sees the whole blast radius; a dry run
//    answers WOULD_APPLY per node here and writes nothing (finish.ts);
// 4. cap (cap.ts): over `safety.bulk-cap` without override, the refusal audited and answered 422;
// 5. fan out (fan-out.ts): each node under its limiter, one node's failure never stopping the others;
// 6. finish (finish.ts): the audit row finished with every node's outcome;
// 7. signal (signal.ts): the stream signal after the commit, and MANAGEMENT_WRITE learnt from what happened;
// then the answer (502 when every node failed).
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { openCommandAudit } from './audit.ts';
import { capOf, refuseOverCap } from './cap.ts';
import type { BrokerCommand, CommandResult, CommandRuntime } from './command-types.ts';
import { affectedCountOf, estimateNodes, previewOf } from './estimate.ts';
import { fanOut } from './fan-out.ts';
import { answerOf, finishDryRun, finishRun, summarise } from './finish.ts';
import { nodeViewsOf, resolveTargets } from './resolve-targets.ts';
import { signalAndLearn } from './signal.ts';

export async function runBrokerCommand<Detail>(
  runtime: CommandRuntime,
  request: RequestContext,
  command: BrokerCommand<Detail>,
): Promise<CommandResult> {
  const { found, reservedAddresses, destinations } = await resolveTargets(runtime, command);
  const skipped = found.skipped;
  const cap = capOf(command, runtime.settings);
  const audit = await openCommandAudit(runtime, request, command, found);

  const estimated = await estimateNodes(nodeViewsOf(runtime, found), command);
  const affectedCount = affectedCountOf(estimated);
  const preview = previewOf(estimated);
  if (command.dryRun) return finishDryRun(audit, command, { preview, skipped, affectedCount, cap });
  await refuseOverCap(audit, command, { preview, skipped, affectedCount, cap });

  const nodes = await fanOut(estimated, command, { audit, preview, skipped, reservedAddresses, destinations });
  const summary = summarise(nodes);
  await finishRun(audit, nodes, skipped, summary);
  await signalAndLearn(runtime, command, summary);
  return answerOf(audit.id, command, { nodes, summary, affectedCount, cap });
}
