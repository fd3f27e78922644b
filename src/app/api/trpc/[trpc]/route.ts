import { handleTrpcRequest } from '@/server/http/trpc-route.ts';

export const dynamic = 'force-dynamic';

export { handleTrpcRequest as GET, handleTrpcRequest as POST };
