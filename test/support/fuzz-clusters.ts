// The clusters both fuzzing suites aim at: one registered whose one node listens nowhere (a loopback port nothing
// serves), so cluster-scoped calls pass the guard and reach the code behind it while every live read or broker command
// fails to connect; and one whose stored password no key opens (a lost key), whose calls must answer 409
// credentials-unreadable, not 500.
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@/base/db/database.ts';
import { processKeys, sealSecret } from '@/modules/platform/governance/index.ts';
import { insertClusterRow } from './cluster-rows.ts';

export async function insertFuzzClusters(
  prisma: PrismaClient,
): Promise<{ clusterId: string; lostKeyClusterId: string }> {
  const clusterId = randomUUID();
  const sealed = sealSecret(processKeys(), 'fuzz-broker-password', `cluster:${clusterId}:password`);
  await prisma.cluster.create({
    data: {
      id: clusterId,
      name: 'fuzz-cluster',
      username: 'fuzz',
      passwordCipher: sealed.cipher,
      passwordKeyId: sealed.keyId,
    },
  });
  await prisma.clusterNode.create({
    data: {
      id: randomUUID(),
      clusterId,
      managementUrl: 'http://127.0.0.1:9/console/jolokia',
      amqpUrl: 'amqp://127.0.0.1:9',
    },
  });
  return { clusterId, lostKeyClusterId: await insertClusterRow(prisma, { name: 'fuzz-lost-key' }) };
}
