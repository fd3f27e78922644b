// What the scrape records per queue per sweep: the numbers every read of queue_snapshot and queue_total shows.
/** The six metrics recorded per queue per sweep (spec: Scrape, rule 6). */
export interface QueueMetrics {
  readonly messageCount: number;
  readonly consumerCount: number;
  readonly deliveringCount: number;
  readonly messagesAdded: number;
  readonly messagesAcked: number;
  readonly messagesExpired: number;
  /** Messages dead-lettered or dropped after their delivery attempts. */
  readonly messagesKilled: number;
}
