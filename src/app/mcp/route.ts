import { handleMcpRoute } from '@/server/http/mcp-route.ts';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export { handleMcpRoute as GET, handleMcpRoute as POST, handleMcpRoute as DELETE };
