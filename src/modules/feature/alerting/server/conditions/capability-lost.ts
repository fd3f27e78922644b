// capability-lost: a capability of the cluster's ledger (MANAGEMENT_READ, MANAGEMENT_WRITE, NOTIFICATIONS,
// MESSAGE_IO; the clusters module keeps one verdict per cluster) went from AVAILABLE to anything else. The ledger
// keeps only the current verdict, so the worker remembers the last one it saw per cluster; a capability that was
// never available (refused at registration) is no loss. The rule's open alert carries a loss across evaluations.
import { z } from 'zod';
import { listCapabilities } from '@/modules/platform/clusters/index.ts';
import type { AlertCondition } from '../condition.ts';

const capabilityLostParams = z.object({
  capabilities: z
    .array(z.enum(['MANAGEMENT_READ', 'MANAGEMENT_WRITE', 'NOTIFICATIONS', 'MESSAGE_IO']))
    .min(1)
    .optional()
    .describe('The capabilities watched (default: every one)'),
});

/** Per cluster, the verdict of each capability at the last evaluation in this process. */
const lastSeen = new Map<string, Map<string, string>>();

export interface CapabilityObservation {
  readonly capability: string;
  readonly value: string;
  /** Its verdict at the evaluation before, in this process; undefined when not seen before. */
  readonly before: string | undefined;
}

/** Lost now: not AVAILABLE, and either AVAILABLE just before or already alerted on (still lost since). */
export function isLost(observation: CapabilityObservation, alreadyOpen: boolean): boolean {
  if (observation.value === 'AVAILABLE') return false;
  return observation.before === 'AVAILABLE' || alreadyOpen;
}

/** One read of the ledger per evaluation of the cluster, compared with what this process saw the time before. */
async function observations(context: Parameters<AlertCondition['evaluate']>[0]): Promise<CapabilityObservation[]> {
  const capabilities = await listCapabilities(context.prisma, context.clusterId);
  const before = lastSeen.get(context.clusterId) ?? new Map<string, string>();
  lastSeen.set(context.clusterId, new Map(capabilities.map((row) => [row.capability, row.value])));
  return capabilities.map((row) => ({
    capability: row.capability,
    value: row.value,
    before: before.get(row.capability),
  }));
}

export const capabilityLost: AlertCondition = {
  params: capabilityLostParams,
  async evaluate(context) {
    const params = capabilityLostParams.parse(context.params);
    const seen = await context.once('capability-observations', () => observations(context));
    return seen
      .filter((observation) => !params.capabilities || params.capabilities.some((c) => c === observation.capability))
      .map((observation) => {
        const lost = isLost(observation, context.open.has(observation.capability));
        return { subject: observation.capability, value: observation.value === 'AVAILABLE' ? 1 : 0, firing: lost };
      });
  },
};
