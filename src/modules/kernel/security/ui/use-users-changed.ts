// After a user is created, changed or deleted, the users and grants lists are read again (a deleted user's grants
// go with them), then the form closes.
import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';

export function useUsersChanged(onDone: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.security.users.pathFilter()),
      queryClient.invalidateQueries(trpc.security.grants.pathFilter()),
    ]);
    onDone();
  };
}
