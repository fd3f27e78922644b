// A client-acknowledge consumer for the capture bus: every message waits for an explicit accept (done),
// release (give it back, no redelivery count), or reject. Credit bounds the messages in flight: one credit
// is returned per settled message, so a slow handler slows the broker instead of filling memory.
// It re-attaches after every reconnect; unsettled messages of a lost connection are redelivered by the broker.
import rhea, { type Connection, type Delivery, type EventContext, type Receiver, type Session } from 'rhea';
import { closeLink, closeSession } from './bounded-close.ts';
import { linkErrorDetail } from './link-error.ts';
import { NativeOperationError } from './link-session.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { nativeMessageOf, type NativeMessage } from './native-message.ts';
import { nativeConnectionFor, nativeOptions, trackLongLivedUser } from './native-pool.ts';

interface Settlement {
  accept(): void;
  /** Back to the queue without counting a failed delivery. */
  release(): void;
  /** Back to the queue counting a failed delivery (dead-lettered after max-delivery-attempts). */
  fail(): void;
}

export interface AckConsumerOptions {
  /** Queue name, or `address::queue`. */
  readonly source: string;
  /** A JMS selector: only matching messages are delivered (a consumer may then wait with messages in the queue). */
  readonly selector?: string;
  /** Messages in flight at most. */
  readonly credit: number;
  readonly onMessage: (message: NativeMessage, settlement: Settlement) => void;
  /**
   * Attach refused or link lost, with the broker's AMQP condition; `sourceGone` when the queue is not there (deleted
   * under the link, or missing at attach). The consumer keeps retrying after reconnects.
   */
  readonly onError?: (error: NativeOperationError, sourceGone: boolean) => void;
}

/** The conditions of a link refused or detached because its queue is not there: deleted under it, missing at attach. */
const SOURCE_GONE: ReadonlySet<string> = new Set(['amqp:resource-deleted', 'amqp:not-found']);

export interface AckConsumer {
  close(): Promise<void>;
}

function settlementFor(delivery: Delivery, receiver: Receiver): Settlement {
  let isSettled = false;
  const settle = (action: () => void) => {
    if (isSettled) return;
    isSettled = true;
    action();
    receiver.add_credit(1);
  };
  return {
    accept: () => settle(() => delivery.accept()),
    release: () => settle(() => delivery.release({ delivery_failed: false })),
    fail: () => settle(() => delivery.modified({ delivery_failed: true })),
  };
}

export function openAckConsumer(endpoint: NativeEndpoint, options: AckConsumerOptions): AckConsumer {
  if (!Number.isInteger(options.credit) || options.credit < 1) throw new RangeError('credit must be ≥ 1');
  const connection = nativeConnectionFor(endpoint);
  let session: Session | undefined;
  let receiver: Receiver | undefined;
  let isClosed = false;

  const attach = (open: Connection) => {
    if (isClosed) return;
    session = open.create_session();
    session.begin();
    const source = options.selector
      ? { address: options.source, filter: rhea.filter.selector(options.selector) }
      : { address: options.source };
    const link = session.open_receiver({ source, autoaccept: false, credit_window: 0 });
    receiver = link;
    link.on('receiver_open', () => link.add_credit(options.credit));
    link.on('message', (context: EventContext) => {
      if (!context.message || !context.delivery) return;
      options.onMessage(nativeMessageOf(context.message), settlementFor(context.delivery, link));
    });
    link.on('receiver_error', () => {
      const { condition, description } = linkErrorDetail(link);
      options.onError?.(
        new NativeOperationError(
          `consumer on ${options.source}: ${condition ?? 'closed'}: ${description ?? ''}`,
          condition,
        ),
        condition !== undefined && SOURCE_GONE.has(condition),
      );
    });
  };

  const stopListening = connection.onOpen(attach);
  const consumer: AckConsumer = {
    async close() {
      if (isClosed) return;
      isClosed = true;
      stopListening();
      untrack();
      const timeoutMs = nativeOptions().closeTimeoutMs;
      if (receiver) await closeLink(receiver, timeoutMs);
      if (session) await closeSession(session, timeoutMs);
    },
  };
  const untrack = trackLongLivedUser(consumer);
  return consumer;
}
