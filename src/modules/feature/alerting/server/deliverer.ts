// The deliverer: sends queued alert_delivery rows, each by one process fleet-wide (a row is claimed by pushing its
// next attempt a lease ahead, under FOR UPDATE SKIP LOCKED), retrying failures with capped exponential backoff until
// MAX_ATTEMPTS; every attempt leaves its status, answer and time on the row (the alert's delivery log). The same
// for every channel kind: a webhook's HTTP answer, an SMTP server's refusal. Taking a row held for a flapping alert
// clears its mark, so a resolution arriving meanwhile no longer cancels what is being sent. Each send is checked
// against alerting.allowed-networks as it stands at that moment (a channel made before the setting narrowed is
// refused then).
import type { Database, PrismaClient } from '@/base/db/database.ts';
import { reconnectDelay } from '@/base/backoff.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { sendTo, type AlertPayload } from './channels.ts';
import { channelReachOf } from './channel-reach.ts';

const MAX_ATTEMPTS = 6;
const RETRY_POLICY = { initialDelayMs: 2_000, maxDelayMs: 5 * 60_000 };
/** Longer than one send may take (10 s): a claimed row is not taken by another process meanwhile. */
const LEASE_MS = 60_000;
const BATCH = 20;

interface ClaimedRow {
  id: string;
  channel_id: string;
  payload: AlertPayload;
  attempt: number;
}

export interface DeliveryDeps {
  readonly db: Database;
  readonly prisma: PrismaClient;
  /** Read for alerting.allowed-networks at every call. */
  readonly settings: SettingsReader;
}

/** Sends every due delivery once; answers how many were tried. */
export async function deliverDue({ db, prisma, settings }: DeliveryDeps, now = new Date()): Promise<number> {
  const reach = channelReachOf(settings);
  const claimed = await db.query<ClaimedRow>(
    `UPDATE alert_delivery SET next_attempt_at = $2, response = CASE WHEN attempt = 0 THEN NULL ELSE response END
      WHERE id IN (SELECT id FROM alert_delivery
                    WHERE status = 'pending' AND next_attempt_at <= $1
                    ORDER BY next_attempt_at, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
      RETURNING id, channel_id, payload, attempt`,
    [now, new Date(now.getTime() + LEASE_MS)],
  );
  await Promise.all(
    claimed.map(async (row) => {
      const channel = await prisma.alertChannel.findUnique({ where: { id: row.channel_id } });
      const outcome = channel
        ? await sendTo(channel, row.payload, reach)
        : { ok: false, response: 'the channel no longer exists' };
      const attempt = row.attempt + 1;
      const done = outcome.ok || attempt >= MAX_ATTEMPTS || !channel;
      // updateMany: the row may have gone meanwhile (its alert deleted by retention or with its rule).
      await prisma.alertDelivery.updateMany({
        where: { id: row.id },
        data: {
          attempt,
          status: outcome.ok ? 'delivered' : done ? 'failed' : 'pending',
          response: outcome.response,
          at: new Date(),
          nextAttemptAt: done ? null : new Date(Date.now() + reconnectDelay(RETRY_POLICY, attempt - 1)),
        },
      });
    }),
  );
  return claimed.length;
}
