// One message as every source gives it: a live browse, a row of message_index, a tail event. Content (properties,
// body) is already governed: masked by the content policy unless the caller holds message:clear.
export type PropertyValue = string | number | boolean | null;

export interface MessageRow {
  readonly id: string;
  readonly address: string;
  /** The queue it was read from; null for a captured message (capture is address-scoped: it cannot say which). */
  readonly queue: string | null;
  /** The broker node's name in the cluster. */
  readonly node: string;
  /** The message's timestamp (ISO-8601), or when it was captured when the message carried none. */
  readonly time: string;
  readonly priority: number | null;
  readonly durable: boolean | null;
  readonly expiration: string | null;
  readonly correlation_id: string | null;
  readonly reply_to: string | null;
  readonly properties: Readonly<Record<string, PropertyValue>>;
  /** A parsed JSON body, a text body, or null (binary bodies are withheld with their reason by the policy). */
  readonly body: unknown;
}
