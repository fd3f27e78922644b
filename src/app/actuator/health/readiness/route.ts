import { readiness } from '@/server/http/actuator.ts';

export const dynamic = 'force-dynamic';

export { readiness as GET };
