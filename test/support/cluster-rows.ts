// A registered cluster's row as tests outside the clusters module need it: the guard, grants and reads look only at
// where a cluster sits, so no broker and no real credentials are involved.
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@/base/db/database.ts';

export async function insertClusterRow(
  prisma: PrismaClient,
  cluster: { id?: string; name?: string; environmentId?: string | null } = {},
): Promise<string> {
  const id = cluster.id ?? randomUUID();
  await prisma.cluster.create({
    data: {
      id,
      name: cluster.name ?? `cluster-${id}`,
      environmentId: cluster.environmentId ?? null,
      username: 'fixture',
      passwordCipher: 'not-a-cipher',
      passwordKeyId: 'none',
    },
  });
  return id;
}
