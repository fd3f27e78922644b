import { handleMetricsRoute } from '@/server/http/metrics-route.ts';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export { handleMetricsRoute as GET };
