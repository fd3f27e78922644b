import { liveness } from '@/server/http/actuator.ts';

export const dynamic = 'force-dynamic';

export { liveness as GET };
