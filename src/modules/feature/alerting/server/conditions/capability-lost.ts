// capability-lost: a capability of the cluster's ledger (MANAGEMENT_READ, MANAGEMENT_WRITE, NOTIFICATIONS,
// MESSAGE_IO; the clusters module keeps one verdict per cluster) is not AVAILABLE but has been (the ledger keeps when
// it was last confirmed available). Read from the ledger alone, so a loss during a restart or a handover of the
// cluster to another instance is seen as well; a capability never available (refused at registration) is no loss.
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

export interface CapabilityObservation {
  readonly capability: string;
  readonly value: string;
  /** When it was last confirmed AVAILABLE; null when never. */
  readonly availableAt: string | null;
}

/** Lost: not AVAILABLE, and AVAILABLE at some time before. */
export function isLost(observation: CapabilityObservation): boolean {
  return observation.value !== 'AVAILABLE' && observation.availableAt !== null;
}

export const capabilityLost: AlertCondition = {
  params: capabilityLostParams,
  async evaluate(context) {
    const params = capabilityLostParams.parse(context.params);
    const seen = await context.once('capabilities', () => listCapabilities(context.prisma, context.clusterId));
    return seen
      .filter((observation) => !params.capabilities || params.capabilities.some((c) => c === observation.capability))
      .map((observation) => ({
        subject: observation.capability,
        value: observation.value === 'AVAILABLE' ? 1 : 0,
        firing: isLost(observation),
      }));
  },
};
