// What a procedure may use of the process it runs in. Declared here, in the kernel, so that no module types its
// procedures with the web process's runtime (src/server) and the procedure kit imports nothing above the kernel.
// A module that puts more on the runtime declares it by merging into this interface (settings adds its store),
// and the web runtime satisfies the merged whole.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { InternalNotifications } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';

export interface ProcedureRuntime {
  readonly instanceId: string;
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  readonly registry: ModuleRegistry;
  readonly notifications: InternalNotifications;
}
