// The findings as Admin → Governance lists them, each with the rule that would classify its location.
import type { Database } from '@/base/db/database.ts';
import { parseSort } from '@/modules/kernel/core/index.ts';
import type { DataClass } from './policy/data-classes.ts';
import type { PolicyRule } from './policy/policy.ts';

interface FindingRow {
  address: string;
  location: string;
  detector: string;
  data_class: DataClass;
  count: string;
  first_seen_at: Date;
  last_seen_at: Date;
  total: string;
}

const ORDER: Record<string, string> = {
  lastSeenAt: 'last_seen_at',
  count: 'count',
  location: 'location',
  address: 'address',
};

/** A rule covering the location: a JSON or XML path, a property or a header; a text pattern is left to a person. */
function suggestedRule(finding: {
  address: string;
  location: string;
  detector: string;
  dataClass: DataClass;
}): PolicyRule | null {
  const id = `${finding.dataClass}-${finding.location}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 90);
  const base = {
    id: id || 'rule',
    dataClass: finding.dataClass,
    ...(finding.address ? { addressPattern: finding.address } : {}),
  };
  if (finding.location.startsWith('body$'))
    return { ...base, target: 'json-path', match: `$${finding.location.slice(5)}` };
  if (finding.location.startsWith('body/')) return { ...base, target: 'xml-path', match: finding.location.slice(4) };
  const named = /^(header|property):([^.]+)/.exec(finding.location);
  if (named) return { ...base, target: named[1] as 'header' | 'property', match: named[2] ?? '' };
  return null;
}

export async function listFindings(
  db: Database,
  input: { q?: string | undefined; sort: string; page: number; pageSize: number; dataClass?: DataClass | undefined },
) {
  const { field, direction } = parseSort<string>(input.sort);
  const rows = await db.query<FindingRow>(
    `SELECT address, location, detector, data_class, count::text, first_seen_at, last_seen_at, count(*) OVER ()::text AS total
       FROM classification_finding
      WHERE ($1::text IS NULL OR data_class = $1)
        AND ($2::text IS NULL OR position(lower($2) in lower(address || ' ' || location || ' ' || detector)) > 0)
      ORDER BY ${ORDER[field] ?? 'last_seen_at'} ${direction === 'asc' ? 'ASC' : 'DESC'}, address, location, detector
      LIMIT $3 OFFSET $4`,
    [input.dataClass ?? null, input.q ?? null, input.pageSize, (input.page - 1) * input.pageSize],
  );
  return {
    items: rows.map((row) => ({
      address: row.address,
      location: row.location,
      detector: row.detector,
      dataClass: row.data_class,
      count: Number(row.count),
      firstSeenAt: row.first_seen_at.toISOString(),
      lastSeenAt: row.last_seen_at.toISOString(),
      suggestedRule: suggestedRule({
        address: row.address,
        location: row.location,
        detector: row.detector,
        dataClass: row.data_class,
      }),
    })),
    total: Number(rows[0]?.total ?? 0),
    page: input.page,
    pageSize: input.pageSize,
  };
}
