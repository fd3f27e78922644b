import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { redirectToChangePassword, redirectToSignIn } from '../auth/session.ts';
import { problemOf } from './problem.ts';

/** A 401 anywhere means the session is missing or over: sign in, then come back. */
const onError = (error: unknown) => {
  const problem = problemOf(error);
  if (problem.status === 401) redirectToSignIn();
  else if (problem.type === 'password-change-required') redirectToChangePassword();
};

export function createConsoleQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
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
