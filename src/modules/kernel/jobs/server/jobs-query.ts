// Reads this instance's job status rows and merges them with the declared jobs (a job the worker has not
// scheduled yet shows as WAITING). Shared by GET /api/v1/system/jobs and the jobs health indicator.
import type { PrismaClient } from '@/base/db/database.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { jobHealth, type JobHealth, type JobStatusRow, toJobView, type JobView } from './job-status.ts';

export async function readJobViews(
  prisma: PrismaClient,
  registry: ModuleRegistry,
  instanceId: string,
): Promise<JobView[]> {
  const rows = await prisma.jobStatus.findMany({ where: { instanceId } });
  const byId = new Map(rows.map((row) => [row.jobId, row]));
  const now = new Date();
  return registry.enabledJobs().map((job) => toJobView(job, byId.get(job.id), instanceId, now));
}

/** Every instance's job rows with their health, for GET /metrics (one gauge set per job and instance). */
export async function readAllJobStatuses(
  prisma: PrismaClient,
  now: Date = new Date(),
): Promise<Array<JobStatusRow & { readonly health: JobHealth }>> {
  const rows = await prisma.jobStatus.findMany({ orderBy: [{ instanceId: 'asc' }, { jobId: 'asc' }] });
  return rows.map((row) => ({ ...row, health: jobHealth(row, now) }));
}
