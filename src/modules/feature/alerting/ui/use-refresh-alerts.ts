// After an alert is acknowledged, silenced or unsilenced, its lists and the drawer's are read again at once (the
// `alerts` signal would refresh them too, a moment later).
import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';

export function useRefreshAlerts() {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.firingByCluster.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.transitions.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.alerting.deliveries.queryKey() });
  };
}
