// Phase 7 of the broker command sequence, after the audit row is finished: the stream signal of the command's
// topic (a screen that refetches on it reads the finished row), and what the run proved of MANAGEMENT_WRITE — the
// capability ledger learns from real writes, not only from the recheck, and a change is signalled on `topology`.
// Neither failing changes the command's answer.
import { publishSignal } from '@/modules/kernel/stream/index.ts';
import { recordWriteOutcome } from '@/modules/platform/clusters/index.ts';
import type { BrokerCommand, CommandRuntime } from './command-types.ts';
import type { RunSummary } from './finish.ts';

export async function signalAndLearn(
  runtime: Pick<CommandRuntime, 'db' | 'bus'>,
  command: Pick<BrokerCommand, 'clusterId' | 'topic'>,
  summary: Pick<RunSummary, 'applied' | 'failed'>,
): Promise<void> {
  await publishSignal(runtime.bus, command.topic, command.clusterId).catch(() => undefined);
  const learned = await recordWriteOutcome(runtime.db.pool, command.clusterId, {
    applied: summary.applied.map((node) => node.nodeName),
    failed: summary.failed.map((node) => ({
      node: node.nodeName,
      kind: node.failure?.kind ?? 'broker-error',
      message: node.failure?.message ?? '',
      advice: node.failure?.advice ?? '',
      snippet: node.failure?.configSnippet ?? null,
    })),
  }).catch(() => false);
  if (learned) await publishSignal(runtime.bus, 'topology', command.clusterId).catch(() => undefined);
}
