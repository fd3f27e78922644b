// After a channel is saved, tested or deleted the list is read again at once, not at the next signal or poll.
import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';

export function useRefreshChannels() {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  return () => void queryClient.invalidateQueries({ queryKey: trpc.alerting.listChannels.queryKey() });
}
