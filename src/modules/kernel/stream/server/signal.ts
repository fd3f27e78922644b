// Stream signals: `{topic, clusterId, ts}` announced on the database bus so every web process of every instance
// can pass them to its own subscribers. Publishing works the same from the web process and the worker.
import { z } from 'zod';
import type { DatabaseBus } from '@/base/db/bus.ts';

export const STREAM_CHANNEL = 'flotilla_stream';

/**
 * Scope for installation-wide signals (e.g. job health): the nil UUID, which no cluster can have.
 * The System jobs screen subscribes with `clusterId=00000000-0000-0000-0000-000000000000`.
 */
export const INSTALLATION_SCOPE_ID = '00000000-0000-0000-0000-000000000000';

const signalSchema = z.object({
  topic: z.string().min(1),
  clusterId: z.uuid(),
  ts: z.string(),
});

export type StreamSignal = z.infer<typeof signalSchema>;

export async function publishSignal(bus: DatabaseBus, topic: string, clusterId: string): Promise<void> {
  const signal: StreamSignal = { topic, clusterId, ts: new Date().toISOString() };
  await bus.notify(STREAM_CHANNEL, JSON.stringify(signal));
}

export function parseSignal(payload: string): StreamSignal | undefined {
  try {
    const parsed = signalSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
