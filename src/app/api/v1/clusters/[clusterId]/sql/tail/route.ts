import { createTailHandler } from '@/modules/feature/sql/index.ts';
import { createTrpcContext } from '@/server/http/context.ts';
import { getWebRuntime } from '@/server/runtime/web-runtime.ts';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = createTailHandler(getWebRuntime, createTrpcContext);
