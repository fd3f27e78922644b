// What the list shows of a message's headers, from either channel: the native one names AMQP fields (creationTime,
// priority, durable), the management one the broker's (timestamp, priority, durable). A masked value is a string.
import type { RouterOutputs } from '@/ui/data/trpc.ts';

export type MessageView = RouterOutputs['messages']['browse']['messages'][number];

/** When the message was made (creation time, else the broker's timestamp), as ISO; undefined when not known. */
export function createdAt(message: MessageView): string | undefined {
  const value = message.headers.creationTime ?? message.headers.timestamp;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return new Date(value).toISOString();
}

export function headerText(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export const isTruncated = (message: MessageView) => message.bodyTruncated || message.truncatedFields.length > 0;
