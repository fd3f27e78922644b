// The index writer a worker service feeds (the capture consumers, the sampler), on the worker's own pool and bus.
import { borrowedDatabase } from '@/base/db/database.ts';
import type { WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { SQL_SETTINGS } from '../sql.settings.ts';
import { IndexWriter } from './index-writer.ts';

export function indexWriterOf(context: WorkerServiceContext): IndexWriter {
  return new IndexWriter({
    pool: context.pool,
    capacity: () => context.settings.integer(SQL_SETTINGS.captureBufferSize),
    notify: (channel, payload) => context.bus.notify(channel, payload),
    governance: { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus },
  });
}
