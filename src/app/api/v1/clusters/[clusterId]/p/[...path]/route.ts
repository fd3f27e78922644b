import { handlePluginGateway } from '@/modules/feature/plugins/index.ts';
import { guardedRoute } from '@/server/http/guarded-route.ts';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handle = guardedRoute(handlePluginGateway);
export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
