// A cluster's newest broker events as a runtime plugin may read them (plugins module, `api.events.list`): governed by
// the content policy exactly as the events API answers a caller without clear access, never in clear.
import type { Database } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { listEventsInput } from './events.schema.ts';
import { listEvents } from './events-read.ts';
import { governEvents } from './governed-events.ts';

export async function newestGovernedEvents(
  runtime: { readonly db: Database; readonly bus: DatabaseBus },
  clusterId: string,
  query: { readonly kind?: string; readonly limit?: number },
) {
  const input = listEventsInput.parse({
    clusterId,
    ...(query.kind ? { kind: query.kind } : {}),
    pageSize: Math.min(Math.max(1, query.limit ?? 50), 200),
  });
  const page = await listEvents(runtime.db.pool, input);
  return (await governEvents(runtime, page.items, { clear: false })).events;
}
