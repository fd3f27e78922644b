// What other modules call at their exits: govern a message or a record of named values with the policy in force,
// count what no rule covered as findings, and, when the caller saw values in clear, write VIEW_CLEAR to the audit
// with the classes and counts.
import { recordAuditEvent } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { findingsCollector } from './findings.ts';
import { processKeys } from './vault/key-ring.ts';
import { openSecret, sealSecret, type Sealed } from './vault/secret-vault.ts';
import {
  enforceFields,
  enforceMessage,
  enforceRecord,
  type Governed,
  type GovernedMessage,
  type MessageContent,
} from './policy/enforce.ts';
import { policyStore, type GovernanceRuntime } from './policy-store.ts';

/** Many records at once (a page of broker events), one policy for all. */
export async function governRecords(
  runtime: GovernanceRuntime,
  records: ReadonlyArray<{ readonly values: Readonly<Record<string, unknown>>; readonly address?: string | undefined }>,
  options: { readonly clear: boolean },
): Promise<Array<Governed<Record<string, unknown>>>> {
  const { compiled } = await policyStore(runtime).current();
  const collector = findingsCollector(runtime.db);
  return records.map((record) => {
    const governed = enforceRecord(compiled, record.values, { address: record.address, clear: options.clear });
    collector.add(governed.findings);
    return governed;
  });
}

/** Messages (a browse page, a send echo): headers, properties and body, one policy for all. */
export async function governMessages(
  runtime: GovernanceRuntime,
  messages: readonly MessageContent[],
  options: { readonly clear: boolean },
): Promise<Array<Governed<GovernedMessage>>> {
  const { compiled } = await policyStore(runtime).current();
  const collector = findingsCollector(runtime.db);
  return messages.map((message) => {
    const governed = enforceMessage(compiled, message, { clear: options.clear });
    collector.add(governed.findings);
    return governed;
  });
}

/**
 * Rows a list, an event or a tool shows, with the named fields that may carry content (address and queue names,
 * a consumer's filter, client ids and users) through the detectors. A row none of whose fields held anything is
 * returned as it was, so a page of ordinary names costs a scan of those names and no copy.
 */
export async function governFields<Row extends object>(
  runtime: GovernanceRuntime,
  rows: readonly Row[],
  fields: ReadonlyArray<keyof Row & string>,
  options: { readonly clear: boolean },
): Promise<{ rows: Row[]; governed: Array<Governed<Record<string, unknown>>> }> {
  // governed[i] is rows[i]'s: what was hidden (or shown in clear) there, for the exit's redactions and audit.
  const { compiled } = await policyStore(runtime).current();
  const governed = rows.map((row) => {
    const values: Record<string, unknown> = {};
    for (const field of fields) if (row[field] !== null && row[field] !== undefined) values[field] = row[field];
    return enforceFields(compiled, values, options);
  });
  const shown = rows.map((row, index) => {
    const one = governed[index];
    return one && one.redactions.length > 0 ? { ...row, ...one.value } : row;
  });
  return { rows: shown, governed };
}

/** A record as a store keeps it: masked by the policy in force (never clear), and its original sealed in the vault. */
export interface StoredRecord {
  readonly masked: Record<string, unknown>;
  readonly redactions: Governed<unknown>['redactions'];
  readonly sealed: Sealed;
  readonly policyVersion: number;
}

/**
 * For a module that stores governed content (spec: stored copies hold the masked form with the policy version;
 * originals sealed in the vault): each record masked with the policy in force and its original (`original`, any
 * JSON) sealed bound to `boundTo`, the row's own key, so it opens on that row only.
 */
export async function maskAndSeal(
  runtime: GovernanceRuntime,
  records: ReadonlyArray<{
    readonly values: Readonly<Record<string, unknown>>;
    readonly original: unknown;
    readonly address?: string | undefined;
    readonly boundTo: string;
  }>,
): Promise<StoredRecord[]> {
  const governed = await governRecords(runtime, records, { clear: false });
  const keys = processKeys();
  return records.map((record, index) => {
    const one = governed[index] as Governed<Record<string, unknown>>;
    return {
      masked: one.value,
      redactions: one.redactions,
      sealed: sealSecret(keys, JSON.stringify(record.original), record.boundTo),
      policyVersion: one.policyVersion,
    };
  });
}

/** The original a store sealed with `maskAndSeal`; throws VaultError when the seal is not this row's. */
export function openStoredOriginal(sealed: Sealed, boundTo: string): unknown {
  return JSON.parse(openSecret(processKeys(), sealed, boundTo).toString('utf8'));
}

/** The version of the policy in force (what a store compares its rows' versions with). */
export async function policyVersionInForce(runtime: GovernanceRuntime): Promise<number> {
  return (await policyStore(runtime).current()).policy.version;
}

/** Refuses a clear view to a caller without message:clear on the cluster (their permissions there). */
export function requireClearAccess(permissions: ReadonlySet<string>): void {
  if (permissions.has('message:clear')) return;
  throw new ProblemError({
    type: 'forbidden',
    title: 'Forbidden',
    status: 403,
    detail: 'Seeing values in clear needs the message:clear permission on this cluster.',
    permission: 'message:clear',
  });
}

/** VIEW_CLEAR: a caller saw non-credential values in clear; the classes and how many of each. */
export async function auditClearView(
  prisma: PrismaClient,
  request: RequestContext,
  view: {
    readonly target: string;
    readonly cluster?: { id: string; name: string };
    readonly governed: ReadonlyArray<Governed<unknown>>;
  },
): Promise<void> {
  const counts: Record<string, number> = {};
  for (const governed of view.governed)
    for (const [dataClass, count] of Object.entries(governed.clearCounts))
      counts[dataClass] = (counts[dataClass] ?? 0) + count;
  if (Object.keys(counts).length === 0) return;
  await recordAuditEvent(
    prisma,
    request,
    {
      action: 'VIEW_CLEAR',
      target: view.target,
      parameters: { classes: counts },
      ...(view.cluster ? { cluster: view.cluster } : {}),
    },
    { outcome: 'SUCCEEDED' },
  );
}
