// Answers the cluster access guard: where a cluster sits in the scope hierarchy.
import type { ClusterLocator } from '@/modules/kernel/access/module.ts';

export const clusterLocator: ClusterLocator = {
  async locate(prisma, clusterId) {
    const cluster = await prisma.cluster.findUnique({
      where: { id: clusterId },
      select: { id: true, name: true, environmentId: true },
    });
    return cluster ? { clusterId: cluster.id, environmentId: cluster.environmentId, name: cluster.name } : undefined;
  },
  async environmentExists(prisma, environmentId) {
    return (await prisma.environment.count({ where: { id: environmentId } })) > 0;
  },
};
