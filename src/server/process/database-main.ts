// Child process that owns the embedded PostgreSQL. It runs in its own process group, so a Ctrl-C in the
// terminal reaches only the supervisor, which then stops web, worker and database in the spec's order.
import { startEmbeddedPostgres } from '@/base/db/embedded-postgres.ts';
import { onShutdown, tellSupervisor } from './child-lifecycle.ts';
import { logger, routeConsoleToLog, setLogProcess } from '@/base/log/log.ts';

const log = logger('database');

setLogProcess('database');
routeConsoleToLog('console');
const dataDir = process.env.FLOTILLA_DATA_DIR ?? '.data';
const port = process.env.FLOTILLA_EMBEDDED_DB_PORT ? Number(process.env.FLOTILLA_EMBEDDED_DB_PORT) : undefined;

try {
  const database = await startEmbeddedPostgres(dataDir, port);
  onShutdown('database', () => database.stop());
  tellSupervisor({ type: 'ready', url: database.url, folder: database.folder });
} catch (error) {
  log.error({ err: error }, 'cannot start the embedded PostgreSQL');
  process.exit(1);
}
