// Which instance owns a cluster: the one whose worker scrapes it also reconciles its HA state and holds its
// notification subscriptions, so a cluster is never polled twice nor subscribed twice (the events module would
// store every notification twice). One session advisory lock per cluster ('clusters.owner'), held on a connection of
// its own; when the owner dies its session ends and another instance's next scrape pass takes the cluster over.
// The scrape claims and releases; HA follows. One instance per worker process, shared through `clusterOwnershipOf`.
import type { Pool } from 'pg';
import { SessionLocks } from '@/base/advisory-lock.ts';

export class ClusterOwnership {
  private readonly locks: SessionLocks;
  private readonly lostListeners = new Set<(clusterIds: readonly string[]) => void>();
  private readonly releaseListeners = new Set<(clusterId: string) => void>();
  private readonly claimListeners = new Set<(clusterId: string) => void>();

  constructor(connectionString: string) {
    this.locks = new SessionLocks(connectionString, 'clusters.owner', (lost) => {
      for (const listener of this.lostListeners) listener(lost);
    });
  }

  /** True when this process owns the cluster (taking it when it is free). */
  async claim(clusterId: string): Promise<boolean> {
    const owned = this.owns(clusterId);
    const owns = await this.locks.tryAcquire(clusterId);
    if (owns && !owned) for (const listener of this.claimListeners) listener(clusterId);
    return owns;
  }

  /** Of these clusters, those no instance owns now (an owner that died has lost its lock with its session). */
  unowned(clusterIds: readonly string[]): Promise<string[]> {
    return this.locks.free(clusterIds);
  }

  owns(clusterId: string): boolean {
    return this.locks.holds(clusterId);
  }

  owned(): string[] {
    return this.locks.names();
  }

  async release(clusterId: string): Promise<void> {
    if (!this.owns(clusterId)) return;
    await this.locks.release(clusterId);
    for (const listener of this.releaseListeners) listener(clusterId);
  }

  /** Called with every cluster lost at once when the lock connection breaks; answers the unsubscribe. */
  onLost(listener: (clusterIds: readonly string[]) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Called when this process comes to own a cluster (free, or an instance gone); answers the unsubscribe. */
  onClaim(listener: (clusterId: string) => void): () => void {
    this.claimListeners.add(listener);
    return () => this.claimListeners.delete(listener);
  }

  /** Called when this process gives a cluster up (removed, unreadable); answers the unsubscribe. */
  onRelease(listener: (clusterId: string) => void): () => void {
    this.releaseListeners.add(listener);
    return () => this.releaseListeners.delete(listener);
  }

  /** Ends every ownership at once (the connection goes, and every lock with it). */
  close(): Promise<void> {
    return this.locks.close();
  }
}

interface Shared {
  readonly ownership: ClusterOwnership;
  users: number;
}

const shared = new WeakMap<Pool, Shared>();

/**
 * The process's ownership, shared by the services that need it (scrape, HA). Each user detaches when it stops; the
 * last one to detach ends the ownership, so HA never holds subscriptions of a cluster it no longer owns.
 */
export function clusterOwnershipOf(pool: Pool): { ownership: ClusterOwnership; detach(): Promise<void> } {
  let entry = shared.get(pool);
  if (!entry) {
    const connectionString = (pool.options as { connectionString?: string }).connectionString;
    if (!connectionString) throw new Error('cluster ownership needs the pool’s connection string for its locks');
    entry = { ownership: new ClusterOwnership(connectionString), users: 0 };
    shared.set(pool, entry);
  }
  const current = entry;
  current.users++;
  let detached = false;
  return {
    ownership: current.ownership,
    async detach() {
      if (detached) return;
      detached = true;
      if (--current.users > 0) return;
      shared.delete(pool);
      await current.ownership.close();
    },
  };
}
