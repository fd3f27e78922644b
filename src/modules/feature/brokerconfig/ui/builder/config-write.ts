// Whether the viewer may save a revision of this cluster's document (config:write, held globally, for the cluster's
// environment or for the cluster): a viewer sees the Builder read-only. The server checks again on every save.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';

const WRITE = 'config:write';

/** Undefined while the viewer's grants are read. */
export function useConfigWrite(clusterId: string, environmentId: string | undefined): boolean | undefined {
  const trpc = useTRPC();
  const me = useQuery(trpc.security.account.me.queryOptions());
  if (!me.data) return undefined;
  return me.data.grants.some(
    (grant) =>
      grant.permissions.includes(WRITE) &&
      (grant.scope === 'GLOBAL' ||
        (grant.scope === 'CLUSTER' && grant.scopeId === clusterId) ||
        (grant.scope === 'ENVIRONMENT' && grant.scopeId === environmentId)),
  );
}
