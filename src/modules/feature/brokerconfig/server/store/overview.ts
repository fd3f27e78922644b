// The screen's first read: the current revision, the latest drift per node and item (with its age), the last apply
// run, and which bridge fields the broker reports back (the others are applied, never verified).
import type { PrismaClient } from '@/base/db/database.ts';
import { readDrift } from '../drift/evaluate-drift.ts';
import { BRIDGE_READABLE } from '../plan/index.ts';
import { currentRevision } from './revisions.ts';

/** What the broker reports of a bridge: its name and the 12 readable fields (plan/compare.ts). */
const BRIDGE_FIELDS_VERIFIED = ['name', ...BRIDGE_READABLE];

const runOf = (row: {
  id: string;
  revision: number;
  planHash: string;
  status: string;
  actor: string;
  approvedBy: string | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  progress: unknown;
}) => ({
  ...row,
  startedAt: row.startedAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

export async function readRuns(prisma: PrismaClient, clusterId: string) {
  const rows = await prisma.configApplyRun.findMany({ where: { clusterId }, orderBy: { startedAt: 'desc' }, take: 50 });
  return rows.map(runOf);
}

export async function readOverview(prisma: PrismaClient, clusterId: string) {
  const [revision, drift, lastRun] = await Promise.all([
    currentRevision(prisma, clusterId),
    readDrift(prisma, clusterId),
    prisma.configApplyRun.findFirst({ where: { clusterId }, orderBy: { startedAt: 'desc' } }),
  ]);
  return {
    revision: revision ? { ...revision, createdAt: revision.createdAt.toISOString() } : null,
    drift,
    driftedCount: drift.filter((item) => item.state === 'DRIFTED' || item.state === 'MISSING').length,
    evaluatedAt: drift.map((item) => item.evaluatedAt).sort()[0] ?? null,
    lastRun: lastRun
      ? {
          id: lastRun.id,
          status: lastRun.status,
          revision: lastRun.revision,
          startedAt: lastRun.startedAt.toISOString(),
          actor: lastRun.actor,
          error: lastRun.error,
        }
      : null,
    bridgeFieldsVerified: BRIDGE_FIELDS_VERIFIED,
  };
}
