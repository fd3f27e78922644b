// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (or to the embedded database when unset).
import { migrate } from '@/base/db/migrate.ts';
import { startEmbeddedPostgres } from '@/base/db/embedded-postgres.ts';

const embedded = process.env.DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres(process.env.FLOTILLA_DATA_DIR ?? '.data');
try {
  const result = await migrate(process.env.DATABASE_URL ?? embedded?.url ?? '');
  console.log(`[migrate] ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
} finally {
  await embedded?.stop();
}
