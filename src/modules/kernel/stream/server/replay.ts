// The `Last-Event-ID` replay hook. A module whose topic carries events (the events module, for `events`)
// registers a provider; a reconnecting client gets what it missed, at most REPLAY_LIMIT events.
import type { StreamEvent } from './hub.ts';

export const REPLAY_LIMIT = 500;

export type ReplayProvider = (clusterId: string, lastEventId: string, limit: number) => Promise<StreamEvent[]>;

export class ReplayRegistry {
  private readonly providers = new Map<string, ReplayProvider>();

  register(topic: string, provider: ReplayProvider): void {
    if (this.providers.has(topic)) throw new Error(`A replay provider for topic ${topic} is already registered`);
    this.providers.set(topic, provider);
  }

  async replay(clusterId: string, topics: ReadonlySet<string>, lastEventId: string): Promise<StreamEvent[]> {
    const batches = await Promise.all(
      [...topics].flatMap((topic) => {
        const provider = this.providers.get(topic);
        return provider ? [provider(clusterId, lastEventId, REPLAY_LIMIT)] : [];
      }),
    );
    return batches.flat().slice(0, REPLAY_LIMIT);
  }
}
