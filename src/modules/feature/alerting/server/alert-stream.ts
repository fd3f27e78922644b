// The `alerts` topic of the stream (contributed to stream.event-sources): every committed alert transition is a
// row of alert_transition; its writer announces the cluster and seq range on the bus after the commit, and each web
// process reads those rows for the clusters someone there listens to. A reconnecting client gets what it missed
// after its Last-Event-ID, written `a<seq>` so it never reads as an `events` position. Only a cluster's scope carries
// them (its subscribers passed the cluster access guard): the installation scope, open to anyone signed in, keeps
// only the data-less `alerts` signal.
import type { Pool } from 'pg';
import { z } from 'zod';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { EventSourceContext, StreamEvent, StreamEventSource } from '@/modules/kernel/stream/index.ts';

const ALERTS_CHANNEL = 'flotilla_alerts';
const ID_PREFIX = 'a';

const announcedSchema = z.object({
  clusterId: z.uuid(),
  fromSeq: z.number().int().nonnegative(),
  toSeq: z.number().int().nonnegative(),
});

export type TransitionRange = z.infer<typeof announcedSchema>;

/** Tells every web process that transitions were committed (call after the commit, never inside it). */
export async function announceTransitions(bus: DatabaseBus | undefined, range: TransitionRange | undefined) {
  if (bus && range) await bus.notify(ALERTS_CHANNEL, JSON.stringify(range));
}

/** Calls `changed` with the cluster of every transition announced on the bus, by any process, until unsubscribed. */
export function onAnnouncedTransitions(bus: DatabaseBus, changed: (clusterId: string) => void): () => void {
  return bus.listen(ALERTS_CHANNEL, (payload) => {
    const announced = parseAnnounced(payload);
    if (announced) changed(announced.clusterId);
  });
}

function parseAnnounced(payload: string): TransitionRange | undefined {
  try {
    const parsed = announcedSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

interface TransitionRow {
  seq: string;
  alert_id: string;
  cluster_id: string;
  rule_id: string;
  rule: string;
  severity: string;
  subject: string;
  transition: string;
  state: string;
  actor: string;
  value: number | null;
  at: Date;
}

/** What a stream client receives for one transition (no `topic` field: that would read as a change signal). */
const dataOf = (row: TransitionRow) => ({
  seq: Number(row.seq),
  alertId: row.alert_id,
  clusterId: row.cluster_id,
  ruleId: row.rule_id,
  rule: row.rule,
  severity: row.severity,
  subject: row.subject,
  transition: row.transition,
  state: row.state,
  actor: row.actor,
  value: row.value,
  at: row.at.toISOString(),
});

const COLUMNS = `seq::text AS seq, alert_id, cluster_id, rule_id, rule, severity, subject, transition, state, actor,
                 value, at`;

const eventOf = (row: TransitionRow): StreamEvent => ({
  topic: 'alerts',
  clusterId: row.cluster_id,
  id: `${ID_PREFIX}${row.seq}`,
  data: dataOf(row),
});

export function createEventSource(context: EventSourceContext): StreamEventSource {
  const pool: Pool = context.pool;
  return {
    channel: ALERTS_CHANNEL,
    async read(payload, wanted) {
      const announced = parseAnnounced(payload);
      if (!announced || !wanted(announced.clusterId)) return [];
      const { rows } = await pool.query<TransitionRow>(
        `SELECT ${COLUMNS} FROM alert_transition WHERE cluster_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq`,
        [announced.clusterId, announced.fromSeq, announced.toSeq],
      );
      return rows.map(eventOf);
    },
    async replay(clusterId, lastEventId, limit) {
      const after = lastEventId.startsWith(ID_PREFIX) ? Number(lastEventId.slice(ID_PREFIX.length)) : Number.NaN;
      if (!/^a\d+$/.test(lastEventId) || !Number.isSafeInteger(after)) return { events: [], truncated: false };
      const { rows } = await pool.query<TransitionRow>(
        `SELECT ${COLUMNS} FROM alert_transition WHERE cluster_id = $3 AND seq > $1 ORDER BY seq LIMIT $2`,
        [after, limit + 1, clusterId],
      );
      return { events: rows.slice(0, limit).map(eventOf), truncated: rows.length > limit };
    },
  };
}
