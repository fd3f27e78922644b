// The console's typed client for /api/trpc. Screens call `useTRPC()` and pass its query options to TanStack Query.
import { createTRPCClient, httpLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/installation/app-router.ts';
import { csrfHeaders } from '../auth/session.ts';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export function createConsoleTrpcClient() {
  // One request per call (no batching), so each answer carries its own X-Request-Id and problem.
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: '/api/trpc', headers: csrfHeaders })] });
}
