// The web runtime on a fresh test database with the built-in roles and a first admin, and its REST edge called
// in-process: what an integration test of a secured endpoint starts from.
import { createRestHandler } from '@/server/http/rest.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';
import { ensureFirstAdmin, syncBuiltInRoles } from '@/modules/kernel/security/server/built-in-roles-sync.ts';
import { createTestDatabase } from './database.ts';
import { TEST_ADMIN } from './sign-in.ts';

export interface SecuredRuntime {
  readonly runtime: WebRuntime;
  readonly rest: (request: Request) => Promise<Response>;
  /** The test database, for a test that opens another runtime (a worker) on it. */
  readonly databaseUrl: string;
  close(): Promise<void>;
}

export async function openSecuredRuntime(
  admin: { username: string; password: string } = TEST_ADMIN,
  /** More environment, e.g. a feature toggle. */
  environment: Readonly<Record<string, string>> = {},
): Promise<SecuredRuntime> {
  const database = await createTestDatabase();
  const runtime = await openWebRuntime({ ...environment, DATABASE_URL: database.url });
  await syncBuiltInRoles(runtime.prisma, runtime.registry.permissionCatalogue());
  await ensureFirstAdmin(runtime.prisma, {
    FLOTILLA_ADMIN_USERNAME: admin.username,
    FLOTILLA_ADMIN_PASSWORD: admin.password,
  });
  return {
    runtime,
    rest: createRestHandler(() => Promise.resolve(runtime)),
    databaseUrl: database.url,
    close: async () => {
      await runtime.close();
      await database.drop();
    },
  };
}
