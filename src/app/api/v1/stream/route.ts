import { handleStreamRoute } from '@/server/http/stream-route.ts';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export { handleStreamRoute as GET };
