// Consumer health of every queue of a cluster: three statements whatever the queue count (the totals, the window
// aggregates, the broker's CONSUMER_SLOW notifications), then the pure ladder. No broker call.
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { slowConsumerQueues } from '@/modules/feature/events/index.ts';
import { readQueueHealthInputs } from '@/modules/platform/scrape/read/index.ts';
import { evaluateHealth, type QueueHealth } from './consumer-health.ts';
import { METRICS_SETTINGS } from './metrics.settings.ts';

export async function consumerHealthOf(
  runtime: { readonly db: Database; readonly prisma: PrismaClient; readonly settings: SettingsReader },
  clusterId: string,
  now: Date = new Date(),
): Promise<{ windowMs: number; items: QueueHealth[] }> {
  const windowMs = runtime.settings.duration(METRICS_SETTINGS.healthWindow);
  const from = new Date(now.getTime() - windowMs);
  const [inputs, slow] = await Promise.all([
    readQueueHealthInputs(runtime.db, runtime.prisma, clusterId, { from, to: now }),
    slowConsumerQueues(runtime.db.pool, clusterId, from),
  ]);
  const items = evaluateHealth(inputs, slow, {
    windowMs,
    minSamples: runtime.settings.integer(METRICS_SETTINGS.healthMinSamples),
    trendShare: runtime.settings.integer(METRICS_SETTINGS.healthTrendPercent) / 100,
  });
  return { windowMs, items };
}
