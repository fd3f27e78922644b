// A sampler's place in a queue: the (timestamp, message id) of the newest message it indexed. The broker's filter
// takes everything from that timestamp on; the service keeps those after the mark (same millisecond: a higher id,
// Artemis ids rise on a broker). Ids travel as text (Java longs) and compare as integers.
export interface HighWaterMark {
  readonly timestamp: number;
  readonly messageId: bigint | null;
}

export const START: HighWaterMark = { timestamp: 0, messageId: null };

function idOf(text: string): bigint | null {
  return /^\d{1,20}$/.test(text) ? BigInt(text) : null;
}

/** The selector that leaves out what is certainly older than the mark. */
export function selectorAfter(mark: HighWaterMark): string | undefined {
  return mark.timestamp > 0 ? `AMQTimestamp >= ${String(mark.timestamp)}` : undefined;
}

export function isAfter(mark: HighWaterMark, timestamp: number, messageId: string): boolean {
  if (timestamp !== mark.timestamp) return timestamp > mark.timestamp;
  const id = idOf(messageId);
  return mark.messageId === null ? true : id !== null && id > mark.messageId;
}

export function advance(mark: HighWaterMark, timestamp: number, messageId: string): HighWaterMark {
  if (!isAfter(mark, timestamp, messageId)) return mark;
  return { timestamp, messageId: idOf(messageId) };
}
