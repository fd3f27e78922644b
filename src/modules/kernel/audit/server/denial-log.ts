// The denial log (access.denial-log): every refusal of a signed-in caller is a DENIED audit row, one per
// (principal, route, reason, cluster, window). The first refusal of a key inserts the row and later ones add to its
// count, in one statement, so several web instances share one row per key. The same window bounds what one
// principal may make the log hold: past `audit.flood-rows` failed, refused, dry-run and denied rows, its changes
// are refused (429 `audit-flood`) until the window ends, as the sign-in throttle bounds anonymous callers.
import { createHash, randomUUID } from 'node:crypto';
import { AUDIT_FLOOD } from '@/modules/kernel/access/index.ts';
import type { Denial, DenialLog } from '@/modules/kernel/access/module.ts';
import type { Problem, RequestContext } from '@/modules/kernel/core/index.ts';
import { AUDIT_SETTINGS } from './audit.settings.ts';
import { wasAudited } from './audit.service.ts';

/** The window that holds `now`: aligned, so every instance puts a refusal in the same one. */
function windowOf(windowMs: number, now = Date.now()): { start: Date; end: Date } {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

function dedupKey(request: RequestContext, denial: Denial, windowStart: Date): string {
  const parts = [
    request.actor.name,
    denial.route,
    denial.problem.type,
    denial.cluster?.clusterId ?? '',
    windowStart.toISOString(),
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/** What the row says of the refusal: its type and status, and the permission it named. Never the detail, which may
 *  echo what the caller typed. */
function facts(denial: Denial, window: { start: Date; end: Date }): Record<string, unknown> {
  const { problem } = denial;
  return {
    status: problem.status,
    ...(typeof problem.permission === 'string' ? { permission: problem.permission } : {}),
    windowStart: window.start.toISOString(),
    windowEnd: window.end.toISOString(),
  };
}

export const denialLog: DenialLog = {
  async record(runtime, request, denial) {
    if (wasAudited(denial.error)) return; // the work it stopped already wrote its FAILED row
    const window = windowOf(runtime.settings.duration(AUDIT_SETTINGS.floodWindow));
    const now = new Date();
    const reason =
      denial.problem.type + (typeof denial.problem.permission === 'string' ? ` (${denial.problem.permission})` : '');
    await runtime.prisma.$executeRaw`
      INSERT INTO audit_event (id, actor, user_id, source_ip, request_id, action, parameters, dry_run, cluster_id,
                               cluster_name, outcome, error, started_at, finished_at, count, dedup_key)
      VALUES (${randomUUID()}::uuid, ${request.actor.name}, ${request.actor.userId}, ${request.sourceIp},
              ${request.requestId}, ${denial.route}, ${JSON.stringify(facts(denial, window))}::jsonb, false,
              ${denial.cluster?.clusterId ?? null}::uuid, ${denial.cluster?.name ?? null}, 'DENIED', ${reason},
              ${now}, ${now}, 1, ${dedupKey(request, denial, window.start)})
      ON CONFLICT (dedup_key) DO UPDATE SET count = audit_event.count + 1, finished_at = EXCLUDED.finished_at`;
  },

  async floodRefusal(runtime, request): Promise<Problem | undefined> {
    const window = windowOf(runtime.settings.duration(AUDIT_SETTINGS.floodWindow));
    const limit = runtime.settings.integer(AUDIT_SETTINGS.floodRows);
    const [row] = await runtime.prisma.$queryRaw<{ rows: number }[]>`
      SELECT count(*)::int AS rows FROM audit_event
       WHERE actor = ${request.actor.name} AND started_at >= ${window.start}
         AND (dry_run OR outcome IN ('FAILED', 'REFUSED', 'DENIED'))`;
    if ((row?.rows ?? 0) < limit) return undefined;
    return {
      type: AUDIT_FLOOD,
      title: 'Too many refused, failed or dry-run changes',
      status: 429,
      detail:
        `You have caused ${limit} or more failed, refused, denied and dry-run changes since ` +
        `${window.start.toISOString()} (audit.flood-rows): changes are refused until ${window.end.toISOString()}.`,
      retryAfterSeconds: Math.max(1, Math.ceil((window.end.getTime() - Date.now()) / 1000)),
    };
  },
};
