// The `jobs` health indicator: DEGRADED when any job missed three intervals.
import type { HealthComponent, HealthContext } from '@/modules/kernel/plugin/index.ts';
import { readJobViews } from './jobs-query.ts';

export async function check(context: HealthContext): Promise<HealthComponent> {
  const views = await readJobViews(context.prisma, context.registry, context.instanceId);
  const jobs = Object.fromEntries(
    views.map((view) => [
      view.id,
      { status: view.status, lastOutcome: view.lastOutcome, lastFinishedAt: view.lastFinishedAt },
    ]),
  );
  const degraded = views.filter((view) => view.status === 'DEGRADED').map((view) => view.id);
  return { status: degraded.length > 0 ? 'DEGRADED' : 'UP', details: { jobs, degraded } };
}
