// The Recommended tab: plan/recommendations.ts judges the current document in the cluster's context (clustered when
// it has more than one logical node; production when its environment's name says so, or it needs approvals).
import type { PrismaClient } from '@/base/db/database.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { getCluster } from '@/modules/platform/clusters/index.ts';
import { EMPTY_DOCUMENT } from '../model/document.ts';
import { recommend } from '../plan/index.ts';
import { currentRevision } from '../store/revisions.ts';
import { approvalEnvironmentsOf, BROKERCONFIG_SETTINGS } from '../brokerconfig.settings.ts';

export async function recommendationsFor(
  runtime: { readonly prisma: PrismaClient; readonly settings: SettingsReader },
  clusterId: string,
) {
  const [revision, cluster] = await Promise.all([
    currentRevision(runtime.prisma, clusterId),
    getCluster(runtime.prisma, clusterId),
  ]);
  const environment = cluster?.environment?.name ?? '';
  const production =
    /prod/i.test(environment) ||
    approvalEnvironmentsOf(runtime.settings.string(BROKERCONFIG_SETTINGS.approvalEnvironments)).has(environment);
  return recommend(revision?.document ?? EMPTY_DOCUMENT, {
    clustered: (cluster?.logicalNodeCount ?? 0) > 1,
    production,
  });
}
