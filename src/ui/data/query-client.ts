import { QueryClient } from '@tanstack/react-query';
import { problemOf } from './problem.ts';

export function createConsoleQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Freshness comes from stream signals (and polling while the stream is down), not from focus events.
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // A 4xx answer will not change by asking again; other failures get two more tries.
        retry: (failures, error) => {
          const status = problemOf(error).status ?? 0;
          return status >= 400 && status < 500 ? false : failures < 2;
        },
      },
    },
  });
}
