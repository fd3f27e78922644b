import { createOidcHandler } from '@/modules/feature/identity-oidc/index.ts';
import { getWebRuntime } from '@/server/runtime/web-runtime.ts';

export const dynamic = 'force-dynamic';

export const GET = createOidcHandler(getWebRuntime);
