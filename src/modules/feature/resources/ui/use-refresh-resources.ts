// After a real run the resources lists are read again (the server forgot what it kept of them), and the queues
// lists too: an address deleted with force takes its queues with it.
import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';

export function useRefreshResources() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.resources.pathFilter()),
      queryClient.invalidateQueries(trpc.queues.pathFilter()),
    ]);
  };
}
