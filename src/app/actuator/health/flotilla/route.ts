import { flotillaHealth } from '@/server/http/actuator.ts';

export const dynamic = 'force-dynamic';

export { flotillaHealth as GET };
