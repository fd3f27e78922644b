// The worker's native connections: one per node, created on first use and kept open. Also the list of
// long-lived native users (subscriptions, capture consumers) so shutdown can close them before the pool.
import { NativeConnection } from './native-connection.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { DEFAULT_NATIVE_OPTIONS, type NativeOptions } from './native-options.ts';

let options: NativeOptions = DEFAULT_NATIVE_OPTIONS;
const connections = new Map<string, NativeConnection>();

export interface Closable {
  close(): Promise<void>;
}

/** Subscriptions and capture consumers, closed first at shutdown (the spec's order). */
const longLivedUsers = new Set<Closable>();

/** Applies changed settings; running connections pick them up at their next reconnect or close. */
export function configureNativeOptions(next: NativeOptions): void {
  options = next;
}

export function nativeOptions(): NativeOptions {
  return options;
}

function isSameEndpoint(a: NativeEndpoint, b: NativeEndpoint): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The node's connection, (re)created when its endpoint changed (new credentials, TLS or address). */
export function nativeConnectionFor(endpoint: NativeEndpoint): NativeConnection {
  const existing = connections.get(endpoint.nodeKey);
  if (existing && existing.status !== 'closed' && isSameEndpoint(existing.endpoint, endpoint)) return existing;
  if (existing) void existing.close();
  const connection = new NativeConnection(endpoint, () => options);
  connections.set(endpoint.nodeKey, connection);
  connection.start();
  return connection;
}

export async function closeNativeConnection(nodeKey: string): Promise<void> {
  const connection = connections.get(nodeKey);
  connections.delete(nodeKey);
  await connection?.close();
}

/** The endpoint of every pooled connection, for a caller that knows which nodes still exist (removals). */
export function pooledNativeEndpoints(): NativeEndpoint[] {
  return [...connections.values()].map((connection) => connection.endpoint);
}

/** Open native connections per cluster, for the `brokers` health indicator. */
export function openNativeConnectionCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const connection of connections.values()) {
    const { clusterKey } = connection.endpoint;
    counts[clusterKey] = (counts[clusterKey] ?? 0) + (connection.status === 'open' ? 1 : 0);
  }
  return counts;
}

export function trackLongLivedUser(user: Closable): () => void {
  longLivedUsers.add(user);
  return () => longLivedUsers.delete(user);
}

export async function closeLongLivedUsers(): Promise<void> {
  const users = [...longLivedUsers];
  longLivedUsers.clear();
  await Promise.allSettled(users.map((user) => user.close()));
}

export async function closeNativePools(): Promise<void> {
  const all = [...connections.values()];
  connections.clear();
  await Promise.allSettled(all.map((connection) => connection.close()));
}
