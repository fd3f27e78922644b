// Child process that owns the embedded PostgreSQL. It runs in its own process group, so a Ctrl-C in the
// terminal reaches only the supervisor, which then stops web, worker and database in the spec's order.
import { startEmbeddedPostgres } from '@/base/db/embedded-postgres.ts';
import { onShutdown, tellSupervisor } from './child-lifecycle.ts';

const dataDir = process.env.FLOTILLA_DATA_DIR ?? '.data';
const port = process.env.FLOTILLA_EMBEDDED_DB_PORT ? Number(process.env.FLOTILLA_EMBEDDED_DB_PORT) : undefined;

try {
  const database = await startEmbeddedPostgres(dataDir, port);
  onShutdown('database', () => database.stop());
  tellSupervisor({ type: 'ready', url: database.url, folder: database.folder });
} catch (error) {
  console.error('[database] cannot start the embedded PostgreSQL:', error);
  process.exit(1);
}
