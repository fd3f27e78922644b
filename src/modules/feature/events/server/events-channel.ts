// The bus message that tells web processes new events were committed: a cluster and a seq range, never the
// events themselves (PostgreSQL NOTIFY payloads are capped at 8 KB; a web process reads the rows it needs).
import { z } from 'zod';

export const EVENTS_CHANNEL = 'flotilla_events';

const appendedSchema = z.object({
  clusterId: z.uuid(),
  fromSeq: z.number().int().nonnegative(),
  toSeq: z.number().int().nonnegative(),
});

export type EventsAppended = z.infer<typeof appendedSchema>;

export function parseAppended(payload: string): EventsAppended | undefined {
  try {
    const parsed = appendedSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
