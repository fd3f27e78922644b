// Orderly end of the native side, in the spec's order: first the long-lived users of connections
// (notification subscriptions and capture consumers), then the connection pools. Every step is bounded by
// the close timeout, so shutdown finishes even when a broker has stopped answering.
import { closeLongLivedUsers, closeNativePools } from './native-pool.ts';

export async function shutdown(): Promise<void> {
  await closeLongLivedUsers();
  await closeNativePools();
}
