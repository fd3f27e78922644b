// The cluster locator: the access guard asks where a cluster sits (its environment) before deciding whether a
// caller's grants reach it. Access owns the question; the module that owns clusters contributes the answer.
import type { PrismaClient } from '@/base/db/database.ts';
import type { ClusterLocation } from './grants.ts';

/** Where a cluster sits, and its name for the denial audit (a refused caller never sees it). */
export interface LocatedCluster extends ClusterLocation {
  readonly name: string;
}

/** Answers undefined for an id that names no cluster. */
export interface ClusterLocator {
  locate(prisma: PrismaClient, clusterId: string): Promise<LocatedCluster | undefined>;
  environmentExists(prisma: PrismaClient, environmentId: string): Promise<boolean>;
}

export interface ClusterLocatorContribution {
  readonly load: () => Promise<ClusterLocator>;
}
