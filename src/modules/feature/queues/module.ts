import { createExtensionPoint, defineModule } from '@/modules/kernel/plugin/index.ts';
import type { Database } from '@/base/db/database.ts';
import { queuesSettings } from './server/queues.settings.ts';

/** Where the grid finds each queue's consumer-health verdict (the metrics module contributes it), when installed. */
export interface QueueVerdictSource {
  /** Every verdict there is, for validating the filter. */
  readonly verdicts: readonly string[];
  /** Queue name → verdict for the cluster: of the names given, or every queue with one of the verdicts. */
  verdictsOf(
    db: Database,
    clusterId: string,
    filter: { readonly names?: readonly string[]; readonly verdicts?: readonly string[] },
  ): Promise<Map<string, string>>;
}

export const queueVerdictSource = createExtensionPoint<{ id: string; load: () => Promise<QueueVerdictSource> }>({
  id: 'queues.verdict-source',
  owner: 'queues',
  cardinality: 'one',
});

export const queuesModule = defineModule({
  id: 'queues',
  title: 'Queues',
  layer: 'feature',
  description:
    'The cross-node queue grid of a cluster (one row per queue with a cell per node, totals over logical nodes, stale nodes flagged, filters, rates, CSV) and the queue detail view.',
  requires: ['core', 'access', 'stream', 'scrape', 'broker', 'clusters', 'commands', 'governance'],
  permissions: [
    { id: 'queue:read', description: 'See a cluster’s queues and their numbers', includedIn: 'viewer' },
    { id: 'queue:write', description: 'Pause, resume, create and delete queues', includedIn: 'operator' },
    {
      id: 'message:write',
      description: 'Purge a queue; delete, move and retry its messages (capped by safety.bulk-cap)',
      includedIn: 'operator',
    },
  ],
  apiPrefixes: [
    '/api/v1/clusters/{clusterId}/queues',
    '/api/v1/clusters/{clusterId}/dead-letters',
    '/api/v1/dead-letters',
  ],
  settings: queuesSettings,
  extensionPoints: [queueVerdictSource],
});
