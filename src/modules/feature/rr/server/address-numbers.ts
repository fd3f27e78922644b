// Per request address over a window, the numbers everything of rr reads: requests, counts per state and the latency
// percentiles of completed pairs, computed by PostgreSQL. The flows and a flow's summary take the requests sent in
// the window (request_at); the alert conditions the correlations settled in it (state_at).
import type { PrismaClient } from '@/base/db/database.ts';
import { RR_STATES } from './correlator/rr-types.ts';

export interface AddressNumbers {
  address: string;
  /** Requests: every correlation but a reply nobody asked for. */
  requests: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  last: Date | null;
  /** One count per state, named by the state. */
  [state: string]: unknown;
}

const STATE_COLUMNS = RR_STATES.map((state) => `count(*) FILTER (WHERE state = '${state}')::int AS "${state}"`).join(
  ', ',
);

/** p50, p95 and p99 of the completed pairs' latency, as columns of an aggregate over rr_event. */
export const PERCENTILES = [0.5, 0.95, 0.99]
  .map(
    (p, index) =>
      `percentile_cont(${p}) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE state = 'COMPLETED') AS ${['p50', 'p95', 'p99'][index]}`,
  )
  .join(', ');

export function addressNumbers(
  prisma: PrismaClient,
  clusterId: string,
  window: { from: Date; until?: Date; by?: 'request_at' | 'state_at'; address?: string },
): Promise<AddressNumbers[]> {
  const by = window.by ?? 'request_at';
  const parameters: unknown[] = [clusterId, window.from];
  const until = window.until ? ` AND ${by} <= $${String(parameters.push(window.until))}` : '';
  const address = window.address === undefined ? '' : ` AND address = $${String(parameters.push(window.address))}`;
  return prisma.$queryRawUnsafe<AddressNumbers[]>(
    `SELECT address, count(*) FILTER (WHERE state <> 'ORPHANED_REPLY')::int AS requests, ${STATE_COLUMNS}, ${PERCENTILES},
       max(request_at) AS last
     FROM rr_event WHERE cluster_id = $1::uuid AND ${by} >= $2${until}${address}
     GROUP BY address`,
    ...parameters,
  );
}
