// Moving a cluster to another environment changes who may act on it, so it needs more than write access to the
// cluster: cluster:write on the environment it leaves and on the one it joins (grants on the cluster alone do not
// count), and cluster:write everywhere when the named environment does not exist yet and would be created.
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { environmentPermissions, type EffectiveGrant } from '@/modules/kernel/access/index.ts';
import { findEnvironment } from './environments.ts';

const WRITE = 'cluster:write';

function missing(detail: string): ProblemError {
  return new ProblemError({ type: 'forbidden', title: 'Permission missing', status: 403, detail, permission: WRITE });
}

export async function requireEnvironmentMove(
  prisma: PrismaClient,
  grants: readonly EffectiveGrant[],
  move: { readonly clusterId: string; readonly environment: string },
): Promise<void> {
  const cluster = await prisma.cluster.findUnique({
    where: { id: move.clusterId.toLowerCase() },
    select: { environmentId: true },
  });
  if (!cluster) return; // the update itself answers cluster-not-found
  const target = await findEnvironment(prisma, move.environment);
  if (target?.id === cluster.environmentId) return;
  if (!environmentPermissions(grants, cluster.environmentId).has(WRITE)) {
    throw missing(
      `Moving this cluster out of its environment needs ${WRITE} on that environment (or everywhere), not only on the cluster.`,
    );
  }
  if (!target) {
    if (!environmentPermissions(grants, null).has(WRITE)) {
      throw missing(`"${move.environment}" is a new environment, and creating one needs ${WRITE} everywhere.`);
    }
    return;
  }
  if (!environmentPermissions(grants, target.id).has(WRITE)) {
    throw missing(`Moving a cluster into "${target.name}" needs ${WRITE} on that environment (or everywhere).`);
  }
}
