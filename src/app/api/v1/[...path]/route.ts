import { handleRestRequest } from '@/server/http/rest.ts';

export const dynamic = 'force-dynamic';

export { handleRestRequest as GET, handleRestRequest as POST, handleRestRequest as PUT };
export { handleRestRequest as PATCH, handleRestRequest as DELETE };
