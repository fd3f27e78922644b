// The notification subscription of one node: a receiver on the node's notification address (as its last poll read
// it; `activemq.notifications` until then) with a selector, on its own session of the node's pooled connection. It re-attaches after every reconnect, retries a refused
// attach with backoff, keeps the subscription state cache current and hands each event to the consumers.
import type { Connection, EventContext, Receiver, Session } from 'rhea';
import rhea from 'rhea';
import { reconnectDelay } from '@/base/backoff.ts';
import { brokerEventFrom, notificationSelector } from './broker-event.ts';
import type { BrokerEventHandler } from './broker-event-consumer.ts';
import { closeLink, closeSession } from './bounded-close.ts';
import { linkErrorDetail } from './link-error.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { nativeMessageOf } from './native-message.ts';
import { nativeConnectionFor, nativeOptions, trackLongLivedUser } from './native-pool.ts';
import { notificationAddressOf } from './reserved-names.ts';
import {
  forgetSubscriptionState,
  refusalFromConnection,
  refusalFromLink,
  setSubscriptionState,
} from './subscription-state.ts';

export interface NotificationSubscription {
  readonly nodeKey: string;
  close(): Promise<void>;
}

interface Subscribed {
  readonly endpoint: NativeEndpoint;
  readonly address: string;
  readonly subscription: NotificationSubscription;
}

const subscriptions = new Map<string, Subscribed>();

function subscribe(endpoint: NativeEndpoint, address: string, onEvent: BrokerEventHandler): NotificationSubscription {
  const connection = nativeConnectionFor(endpoint);
  const context = { user: endpoint.username, host: endpoint.host, port: endpoint.port, address };
  let session: Session | undefined;
  let receiver: Receiver | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let refusedAttaches = 0;
  let isClosed = false;

  const attach = (open: Connection) => {
    if (isClosed) return;
    session = open.create_session();
    session.begin();
    const link = session.open_receiver({
      source: { address, filter: rhea.filter.selector(notificationSelector()) },
      autoaccept: true,
      credit_window: 100,
    });
    receiver = link;
    link.on('receiver_open', () => {
      // A refused attach is answered with a source-less attach and then a detach carrying the error.
      if (!(link.source as unknown)) return;
      refusedAttaches = 0;
      setSubscriptionState(endpoint.nodeKey, 'established');
    });
    link.on('message', (event: EventContext) => {
      if (!event.message) return;
      const brokerEvent = brokerEventFrom(endpoint, nativeMessageOf(event.message).applicationProperties);
      if (brokerEvent) onEvent(brokerEvent);
    });
    link.on('receiver_error', () => {
      setSubscriptionState(endpoint.nodeKey, refusalFromLink(linkErrorDetail(link), context));
    });
    link.on('receiver_close', () => {
      // The broker detached us while the connection stays up (refusal, queue deleted): try again later.
      if (isClosed || connection.current !== open) return;
      const previous = session;
      if (previous) void closeSession(previous, nativeOptions().closeTimeoutMs);
      const options = nativeOptions();
      const delay = reconnectDelay(
        { initialDelayMs: options.reconnectInitialDelayMs, maxDelayMs: options.reconnectMaxDelayMs },
        refusedAttaches++,
      );
      retryTimer = setTimeout(() => {
        const current = connection.current;
        if (current) attach(current);
      }, delay);
      retryTimer.unref();
    });
  };

  const stopListeningOpen = connection.onOpen(attach);
  const stopListeningDown = connection.onDown((failure) => {
    receiver = undefined;
    session = undefined;
    setSubscriptionState(endpoint.nodeKey, refusalFromConnection(failure, context));
  });

  const subscription: NotificationSubscription = {
    nodeKey: endpoint.nodeKey,
    async close() {
      if (isClosed) return;
      isClosed = true;
      clearTimeout(retryTimer);
      stopListeningOpen();
      stopListeningDown();
      untrack();
      if (subscriptions.get(endpoint.nodeKey)?.subscription === subscription) subscriptions.delete(endpoint.nodeKey);
      const timeoutMs = nativeOptions().closeTimeoutMs;
      if (receiver) await closeLink(receiver, timeoutMs);
      if (session) await closeSession(session, timeoutMs);
      forgetSubscriptionState(endpoint.nodeKey);
    },
  };
  const untrack = trackLongLivedUser(subscription);
  return subscription;
}

/**
 * Makes sure the node has a notification subscription; idempotent, so the reconciler may call it on every
 * pass. A changed endpoint (credentials, TLS, address) or notification address replaces the subscription. Every
 * event goes to `onEvent` (the worker passes the dispatcher of the broker.event-consumers contributions).
 * `notificationAddress` is the broker's `management-notification-address` as the node's poll read it.
 */
export function ensureNotificationSubscription(
  endpoint: NativeEndpoint,
  onEvent: BrokerEventHandler,
  notificationAddress?: string | null,
): NotificationSubscription {
  const address = notificationAddressOf(notificationAddress);
  const existing = subscriptions.get(endpoint.nodeKey);
  if (existing && existing.address === address && JSON.stringify(existing.endpoint) === JSON.stringify(endpoint))
    return existing.subscription;
  if (existing) void existing.subscription.close();
  const subscription = subscribe(endpoint, address, onEvent);
  subscriptions.set(endpoint.nodeKey, { endpoint, address, subscription });
  return subscription;
}

/** Ends a node's subscription (node removed, or no longer serving after a failover). */
export async function dropNotificationSubscription(nodeKey: string): Promise<void> {
  await subscriptions.get(nodeKey)?.subscription.close();
}
