// What a cluster's message index is fed by: capture taps and sampled queues.
import { z } from 'zod';

export const subscriptionView = z.object({
  id: z.string(),
  address: z.string(),
  mode: z.enum(['CAPTURE', 'SAMPLE']),
  queue: z.string().nullable(),
  state: z.string().describe('PENDING, ACTIVE or FAILED: what the reconciler or the sampler last made of it'),
  lastError: z.string().nullable(),
  stateChangedAt: z.string().nullable(),
  createdAt: z.string(),
});

export const listSubscriptionsInput = z.object({ clusterId: z.uuid() });
export const listSubscriptionsOutput = z.object({
  items: z.array(subscriptionView),
  notices: z.array(z.string()).describe('What capture and sampling cannot see, always shown'),
});

export const createSubscriptionInput = z
  .object({
    clusterId: z.uuid(),
    address: z.string().min(1).max(1000),
    mode: z.enum(['CAPTURE', 'SAMPLE']),
    queue: z.string().min(1).max(1000).optional().describe('The queue a SAMPLE subscription browses'),
    dryRun: z.boolean().default(false),
  })
  .refine((input) => input.mode === 'CAPTURE' || input.queue !== undefined, {
    path: ['queue'],
    message: 'a SAMPLE subscription names the queue it browses',
  })
  .refine((input) => input.mode === 'SAMPLE' || input.queue === undefined, {
    path: ['queue'],
    message: 'a CAPTURE subscription taps the whole address: leave queue out',
  });

export const removeSubscriptionInput = z.object({
  clusterId: z.uuid(),
  id: z.uuid(),
  dryRun: z.boolean().default(false),
});

export const subscriptionChangeOutput = z.object({
  id: z.string(),
  dryRun: z.boolean(),
  /** What happens next on the brokers: the reconciler acts on its next pass. */
  next: z.string(),
});
