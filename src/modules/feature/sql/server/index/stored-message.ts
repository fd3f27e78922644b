// A captured or sampled message as message_index keeps it: its content governed by the policy in force (message id,
// correlation id, reply-to, properties and body: senders put order numbers and card numbers in any of them), never
// in clear, and the original sealed in the vault bound to the row's own key so it opens on that row only.
import { randomUUID } from 'node:crypto';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import {
  governMessages,
  processKeys,
  sealSecret,
  type Governed,
  type GovernedMessage,
  type MessageContent,
  type Sealed,
} from '@/modules/platform/governance/index.ts';
import type { MessageRow, PropertyValue } from '../message-row.ts';

/** A message in clear as a capture consumer or a sampler hands it over, with where it came from. */
export interface CapturedMessage extends Omit<MessageRow, 'properties' | 'body'> {
  readonly clusterId: string;
  readonly nodeId: string;
  readonly origin: 'capture' | 'sample';
  /**
   * What a redelivered capture copy shares with its first delivery (capture/captured-message.ts): the writer skips a
   * copy whose key it holds. Absent for a sample, and for a copy the broker gave no id.
   */
  readonly captureKey?: string | null;
  readonly subscriptionId: string | null;
  readonly properties: Readonly<Record<string, PropertyValue>>;
  /** A parsed JSON value, a text, bytes (withheld as binary), or null/undefined for no body. */
  readonly body: unknown;
  readonly contentType?: string | undefined;
  /** The message's own send time (ISO) when it carried one; `time` falls back to when it was captured. */
  readonly sentAt?: string | null;
  /** When the capture consumer received it (ISO). */
  readonly receivedAt?: string;
}

export interface StoredMessage {
  readonly rowId: string;
  readonly messageId: string;
  readonly correlationId: string | null;
  readonly replyTo: string | null;
  readonly properties: Record<string, unknown>;
  /** The governed body: a JSON value, a text (stored as a JSON string), or null. */
  readonly body: unknown;
  readonly bodyWithheld: string | null;
  readonly policyVersion: number;
  readonly redactions: Governed<unknown>['redactions'];
  readonly sealed: Sealed;
}

/** The row key a seal is bound to. */
export function sealBinding(rowId: string): string {
  return `message_index:${rowId}`;
}

function bodyContent(message: CapturedMessage): MessageContent['body'] {
  const { body } = message;
  if (body === null || body === undefined) return { kind: 'empty' };
  if (body instanceof Uint8Array) return { kind: 'bytes', size: body.byteLength, contentType: message.contentType };
  if (typeof body === 'string') return { kind: 'text', text: body, contentType: message.contentType };
  return { kind: 'text', text: JSON.stringify(body), contentType: 'application/json' };
}

function headerText(governed: GovernedMessage, name: string): string | null {
  const value = governed.headers[name];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function storedBody(governed: GovernedMessage): { body: unknown; withheld: string | null } {
  const { body } = governed;
  if (body.kind === 'empty') return { body: null, withheld: null };
  if (body.kind === 'withheld') return { body: null, withheld: body.reason };
  return { body: body.value, withheld: null };
}

/** What the original was, as sealed: everything the policy may have changed. */
function originalOf(message: CapturedMessage): unknown {
  const body = message.body instanceof Uint8Array ? Buffer.from(message.body).toString('base64') : message.body;
  return {
    id: message.id,
    correlation_id: message.correlation_id,
    reply_to: message.reply_to,
    properties: message.properties,
    body: body ?? null,
    ...(message.body instanceof Uint8Array ? { bodyEncoding: 'base64' } : {}),
  };
}

/** `rowIds`: the rows' keys when they exist already (a remask); new keys otherwise. */
export async function storeMessages(
  governance: { readonly db: Database; readonly bus: DatabaseBus },
  messages: readonly CapturedMessage[],
  rowIds?: readonly string[],
): Promise<StoredMessage[]> {
  const governed = await governMessages(
    governance,
    messages.map((message) => ({
      address: message.address,
      headers: {
        messageId: message.id,
        ...(message.correlation_id === null ? {} : { correlationId: message.correlation_id }),
        ...(message.reply_to === null ? {} : { replyTo: message.reply_to }),
      },
      properties: message.properties,
      body: bodyContent(message),
    })),
    { clear: false },
  );
  const keys = processKeys();
  return messages.map((message, index) => {
    const one = governed[index] as Governed<GovernedMessage>;
    const rowId = rowIds?.[index] ?? randomUUID();
    const { body, withheld } = storedBody(one.value);
    return {
      rowId,
      // A message id the policy dropped (a credential) still needs a value: the row keeps a placeholder.
      messageId: headerText(one.value, 'messageId') ?? '(withheld)',
      correlationId: headerText(one.value, 'correlationId'),
      replyTo: headerText(one.value, 'replyTo'),
      properties: one.value.properties,
      body,
      bodyWithheld: withheld,
      policyVersion: one.policyVersion,
      redactions: one.redactions,
      sealed: sealSecret(keys, JSON.stringify(originalOf(message)), sealBinding(rowId)),
    };
  });
}
