import { serveUiBundle } from '@/modules/feature/plugins/index.ts';
import { guardedRoute } from '@/server/http/guarded-route.ts';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = guardedRoute(serveUiBundle);
