// The web runtime with the built-in roles and a first admin, and its REST edge called in-process: what a test of a
// secured endpoint starts from, on a fresh test database or on one a scenario already runs on (the HA scenarios').
import type { ModuleDescriptor } from '@/modules/kernel/plugin/index.ts';
import { createRestHandler } from '@/server/http/rest.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';
import { ensureFirstAdmin, syncBuiltInRoles } from '@/modules/kernel/security/server/built-in-roles-sync.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { restClient, type RestCall } from './rest-call.ts';
import { signIn, TEST_ADMIN, type AuthHeaders } from './sign-in.ts';

export interface SecuredRuntimeOptions {
  /** The first admin; TEST_ADMIN unless a suite needs another. */
  readonly admin?: { username: string; password: string };
  /** A database that already exists (it is neither created nor dropped here); a fresh one otherwise. */
  readonly databaseUrl?: string;
  /** FLOTILLA_INSTANCE_ID: a runtime beside a scenario's own instance needs its own id. */
  readonly instanceId?: string;
  /**
   * More environment, e.g. a feature toggle. The built-in roles are synced from this runtime's catalogue, so a
   * feature turned off here narrows them for every runtime on the database: a second runtime with a feature off,
   * beside a suite's own, is opened bare (openWebRuntime) instead.
   */
  readonly environment?: Readonly<Record<string, string>>;
  /** The modules installed, when a suite adds its own beside the real ones. */
  readonly modules?: readonly ModuleDescriptor[];
}

export interface SecuredRuntime {
  readonly runtime: WebRuntime;
  readonly rest: (request: Request) => Promise<Response>;
  /** The test database, for a test that opens another runtime (a worker) on it. */
  readonly databaseUrl: string;
  /** Signs in (as the first admin unless told) and gives that session's calls of the REST API. */
  signedIn(credentials?: { username: string; password: string }): Promise<SignedInClient>;
  close(): Promise<void>;
}

interface SignedInClient {
  readonly auth: AuthHeaders;
  readonly call: RestCall;
}

export async function openSecuredRuntime(options: SecuredRuntimeOptions = {}): Promise<SecuredRuntime> {
  const admin = options.admin ?? TEST_ADMIN;
  const database = options.databaseUrl === undefined ? await createTestDatabase() : undefined;
  const databaseUrl = options.databaseUrl ?? (database as TestDatabase).url;
  const instance = options.instanceId === undefined ? {} : { FLOTILLA_INSTANCE_ID: options.instanceId };
  const runtime = await openWebRuntime(
    { ...options.environment, ...instance, DATABASE_URL: databaseUrl },
    options.modules,
  );
  await syncBuiltInRoles(runtime.prisma, runtime.registry.permissionCatalogue());
  await ensureFirstAdmin(runtime.prisma, {
    FLOTILLA_ADMIN_USERNAME: admin.username,
    FLOTILLA_ADMIN_PASSWORD: admin.password,
  });
  const rest = createRestHandler(() => Promise.resolve(runtime));
  return {
    runtime,
    rest,
    databaseUrl,
    async signedIn(credentials = admin) {
      const auth = await signIn(rest, 'http://127.0.0.1', credentials);
      return { auth, call: restClient(rest, auth) };
    },
    close: async () => {
      await runtime.close();
      await database?.drop();
    },
  };
}
