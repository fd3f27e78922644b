// Internal notifications (spec: "Internal notifications"): how a lower layer hears about work done above it without
// importing it. A notification is delivered to this process's consumers in publish order, each awaited before the
// next (alerting evaluates a tier "in the same thread", in order), and announced on the database bus so the other
// processes of every instance deliver it to theirs (a cluster registered in the web process reaches the worker).
import { randomUUID } from 'node:crypto';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('notifications');

/**
 * Notification name → payload. Empty here: each publisher declares its own notifications by merging into this
 * interface (`declare module '@/modules/kernel/core/internal-notifications.ts'`, in its module.ts), so the kernel
 * names no platform or feature event and a consumer gets the publisher's payload type without importing it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface InternalNotificationMap {}

export type InternalNotificationName = keyof InternalNotificationMap;
export type Consumer<N extends InternalNotificationName> = (
  payload: InternalNotificationMap[N],
) => Promise<void> | void;

declare module '@/modules/kernel/plugin/descriptor.ts' {
  /** A worker service hears and publishes internal notifications (the worker runtime's one object on its bus). */
  interface WorkerServiceContext {
    readonly notifications: InternalNotifications;
  }
}

const INTERNAL_NOTIFICATION_CHANNEL = 'flotilla_internal';

interface Envelope {
  readonly name: InternalNotificationName;
  readonly payload: unknown;
  /** The publishing process, which has already delivered it to its own consumers. */
  readonly origin: string;
}

export class InternalNotifications {
  private readonly consumers = new Map<InternalNotificationName, Set<Consumer<never>>>();
  private readonly origin = randomUUID();
  // Deliveries from the bus run one after another, like local ones, so order is kept across processes too.
  private remoteDeliveries: Promise<void> = Promise.resolve();

  constructor(private readonly bus: DatabaseBus) {
    bus.listen(INTERNAL_NOTIFICATION_CHANNEL, (raw) => {
      const envelope = parseEnvelope(raw);
      if (!envelope || envelope.origin === this.origin) return;
      this.remoteDeliveries = this.remoteDeliveries.then(() => this.deliver(envelope.name, envelope.payload as never));
    });
  }

  /** Registers a consumer; the returned function removes it. */
  subscribe<N extends InternalNotificationName>(name: N, consumer: Consumer<N>): () => void {
    const set = this.consumers.get(name) ?? new Set();
    set.add(consumer);
    this.consumers.set(name, set);
    return () => set.delete(consumer);
  }

  /** Delivers to this process's consumers in order, then announces it to the other processes. */
  async publish<N extends InternalNotificationName>(name: N, payload: InternalNotificationMap[N]): Promise<void> {
    await this.deliver(name, payload);
    const envelope: Envelope = { name, payload, origin: this.origin };
    await this.bus.notify(INTERNAL_NOTIFICATION_CHANNEL, JSON.stringify(envelope));
  }

  private async deliver<N extends InternalNotificationName>(name: N, payload: InternalNotificationMap[N]) {
    for (const consumer of this.consumers.get(name) ?? []) {
      try {
        await (consumer as Consumer<N>)(payload);
      } catch (error) {
        // One failing consumer must not starve the others (or the publisher) of the notification.
        log.error({ err: error, notification: name }, 'a consumer failed');
      }
    }
  }
}

function parseEnvelope(raw: string): Envelope | undefined {
  try {
    const parsed = JSON.parse(raw) as Partial<Envelope>;
    return typeof parsed.name === 'string' && typeof parsed.origin === 'string' ? (parsed as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

const perBus = new WeakMap<DatabaseBus, InternalNotifications>();

/** The process's one notifications object on a bus, so a module's start hook and the runtime share consumers. */
export function notificationsOf(bus: DatabaseBus): InternalNotifications {
  const existing = perBus.get(bus);
  if (existing) return existing;
  const created = new InternalNotifications(bus);
  perBus.set(bus, created);
  return created;
}
