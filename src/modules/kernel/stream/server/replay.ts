// The `Last-Event-ID` replay hook. A module whose topic carries events (the events module, for `events`)
// registers a provider; a reconnecting client gets what it missed, at most REPLAY_LIMIT events.
import type { ReplayAnswer } from './event-source.ts';
import type { StreamEvent } from './hub.ts';

const REPLAY_LIMIT = 500;

export type ReplayProvider = (clusterId: string, lastEventId: string, limit: number) => Promise<ReplayAnswer>;

export class ReplayRegistry {
  private readonly providers = new Map<string, ReplayProvider>();

  register(topic: string, provider: ReplayProvider): void {
    if (this.providers.has(topic)) throw new Error(`A replay provider for topic ${topic} is already registered`);
    this.providers.set(topic, provider);
  }

  async replay(clusterId: string, topics: ReadonlySet<string>, lastEventId: string): Promise<ReplayAnswer> {
    const answers = await Promise.all(
      [...topics].flatMap((topic) => {
        const provider = this.providers.get(topic);
        return provider ? [provider(clusterId, lastEventId, REPLAY_LIMIT)] : [];
      }),
    );
    const events: StreamEvent[] = answers.flatMap((answer) => answer.events);
    return {
      events: events.slice(0, REPLAY_LIMIT),
      truncated: events.length > REPLAY_LIMIT || answers.some((answer) => answer.truncated),
    };
  }
}
