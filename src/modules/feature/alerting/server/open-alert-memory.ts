// What the owning worker keeps of each cluster's open alerts between tier ticks. A large cluster has thousands open
// on every tick and nothing about them changes on most ticks, so reading them all again cost more than judging every
// rule. The copy is trusted while nothing else can have changed them: the cluster's newest transition is still the
// one seen when it was read (one index read), no `alerts` announcement arrived since (a user silenced one in a web
// process), the bus did not reconnect (announcements may have been lost) and this process still owns the cluster.
// A tick that committed transitions moved the seq (the next tick reads again); values alone are written into the copy.
import type { Database } from '@/base/db/database.ts';
import type { SteppedAlert } from './transitions.ts';

interface Kept {
  readonly latestSeq: string | null;
  readonly alerts: readonly SteppedAlert[];
}

export class OpenAlertMemory {
  private readonly kept = new Map<string, Kept>();

  /** The cluster's open alerts: the kept copy while it is current, else `read` (and kept). */
  async openAlerts(
    db: Database,
    clusterId: string,
    read: () => Promise<SteppedAlert[]>,
  ): Promise<readonly SteppedAlert[]> {
    const latestSeq = await latestTransition(db, clusterId);
    const kept = this.kept.get(clusterId);
    if (kept && kept.latestSeq === latestSeq) return kept.alerts;
    // Read after the seq: a transition committed in between makes the next tick's seq differ, and it reads again.
    const alerts = await read();
    this.kept.set(clusterId, { latestSeq, alerts });
    return alerts;
  }

  /**
   * After the tick's commit, the values it moved are written into the copy. A tick that committed transitions needs
   * nothing more: they moved the cluster's newest seq, so the next tick reads the alerts again.
   */
  committed(clusterId: string, values: readonly { id: string; value: number | null }[]): void {
    const kept = this.kept.get(clusterId);
    if (!kept || values.length === 0) return;
    const byId = new Map(kept.alerts.map((alert) => [alert.id, alert]));
    for (const { id, value } of values) {
      const alert = byId.get(id);
      if (alert) alert.lastValue = value;
    }
  }

  /** Drops the copy of a cluster, or of every cluster. */
  forget(clusterId?: string): void {
    if (clusterId === undefined) this.kept.clear();
    else this.kept.delete(clusterId);
  }
}

async function latestTransition(db: Database, clusterId: string): Promise<string | null> {
  const [row] = await db.query<{ seq: string | null }>(
    'SELECT max(seq)::text AS seq FROM alert_transition WHERE cluster_id = $1',
    [clusterId],
  );
  return row?.seq ?? null;
}
