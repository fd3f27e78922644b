// Findings: detections in fields no rule covers, counted in memory and written to classification_finding in batches
// (one statement per batch, at most every few seconds), so governing a busy stream of content costs no write per
// message. Admin → Governance lists them with "make a rule from this".
import type { Database } from '@/base/db/database.ts';
import type { Finding } from './policy/enforce.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('governance');

const FLUSH_AFTER_MS = 5_000;
const FLUSH_AT_KEYS = 500;

interface Tally {
  address: string;
  location: string;
  detector: string;
  dataClass: string;
  count: number;
  first: Date;
  last: Date;
}

class FindingsCollector {
  private tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly db: Database) {}

  add(findings: readonly Finding[]): void {
    // After the last flush the database is closing: a count now could not be written.
    if (findings.length === 0 || this.closed) return;
    const now = new Date();
    for (const finding of findings) {
      const address = finding.address ?? '';
      const key = `${address}\u0000${finding.location}\u0000${finding.detector}`;
      const tally = this.tallies.get(key);
      if (tally) {
        tally.count += 1;
        tally.last = now;
      } else {
        this.tallies.set(key, {
          address,
          location: finding.location,
          detector: finding.detector,
          dataClass: finding.dataClass,
          count: 1,
          first: now,
          last: now,
        });
      }
    }
    if (this.tallies.size >= FLUSH_AT_KEYS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const tallies = [...this.tallies.values()];
    this.tallies = new Map();
    if (tallies.length === 0) return;
    // A database closed without the process's close hooks (a runtime dropped, not closed): the counts cannot be
    // written anywhere, which is said once, not logged as a failure of the database.
    if (this.db.pool.ended) {
      log.warn({ findings: tallies.length }, 'findings counted after the database closed are not written');
      return;
    }
    await this.db
      .query(
        `INSERT INTO classification_finding AS f (address, location, detector, data_class, count, first_seen_at, last_seen_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[], $7::timestamptz[])
         ON CONFLICT (address, location, detector) DO UPDATE
           SET count = f.count + excluded.count, last_seen_at = greatest(f.last_seen_at, excluded.last_seen_at),
               data_class = excluded.data_class`,
        [
          tallies.map((tally) => tally.address),
          tallies.map((tally) => tally.location),
          tallies.map((tally) => tally.detector),
          tallies.map((tally) => tally.dataClass),
          tallies.map((tally) => tally.count),
          tallies.map((tally) => tally.first),
          tallies.map((tally) => tally.last),
        ],
      )
      .catch((error: unknown) => log.error({ err: error }, 'findings not written'));
  }

  /** The last flush, before the database closes (the process's runtime closing): what was counted is written. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}

const collectors = new WeakMap<Database, FindingsCollector>();

export async function closeFindings(db: Database): Promise<void> {
  await collectors.get(db)?.close();
}

export function findingsCollector(db: Database): FindingsCollector {
  let collector = collectors.get(db);
  if (!collector) {
    collector = new FindingsCollector(db);
    collectors.set(db, collector);
  }
  return collector;
}
