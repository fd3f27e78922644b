// The seven metrics of a queue (spec: Scrape, rule 6) as every API that shows them declares them.
import { z } from 'zod';

export const queueMetricsShape = {
  messageCount: z.number(),
  consumerCount: z.number().int(),
  deliveringCount: z.number(),
  messagesAdded: z.number(),
  messagesAcked: z.number(),
  messagesExpired: z.number(),
  messagesKilled: z.number().describe('Messages dead-lettered or dropped after their delivery attempts'),
};
