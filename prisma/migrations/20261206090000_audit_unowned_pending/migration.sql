-- ADR 35 names the process of every PENDING audit row it writes; rows written before it have no owner, and the
-- interrupted sweep cannot tell whether their process lives, so they stayed PENDING for ever. Every process of this
-- version writes an owner, so a row still PENDING without one was opened by a process of an earlier version: it is
-- finished here, once, as INTERRUPTED. In a rolling upgrade an earlier process may still be running that command;
-- its own finish then writes the outcome it really had over this one (finish is not limited to PENDING rows).
UPDATE "audit_event"
   SET "outcome" = 'INTERRUPTED',
       "finished_at" = now(),
       "error" = 'the process running it ended before it finished (it was opened by a version of Flotilla that did '
              || 'not record its process, and was found unfinished at the upgrade); the broker may have applied all, '
              || 'part or none of it; per-node detail below is what it reported'
 WHERE "outcome" = 'PENDING' AND "owner" IS NULL;
