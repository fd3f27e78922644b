// Where the message open in the drawer was read, and the broker's id of it that acting on it alone needs.

export interface MessageOrigin {
  readonly clusterId: string;
  readonly queueName: string;
  /** The node whose copy was browsed (the browse answer's nodeId). */
  readonly nodeId: string;
  readonly nodeName: string;
  readonly channel: 'native' | 'management';
  readonly deadLetter: boolean;
}

/** The broker's id of a message: the management channel's messageId (digits); a native page has none. */
export function brokerIdOf(messageId: string, channel: MessageOrigin['channel']): string | undefined {
  return channel === 'management' && /^\d{1,19}$/.test(messageId) ? messageId : undefined;
}
