// MANAGEMENT_READ and MANAGEMENT_WRITE kept current from what the scrape's management calls meet on the cluster's
// nodes (the scrape owns the clients; the clusters module owns the ledger), and from the scheduled recheck that
// asks the broker whether writes would be allowed. Errors count by class: a refused login or a refused call says
// something about the capability; an unreachable node or a timeout says something about the network, so it leaves
// the verdict as it was (the node's own status shows it).
import type { Pool } from 'pg';
import { inTransaction } from '@/base/db/transaction.ts';
import { durationSetting, type SettingsReader } from '@/modules/kernel/plugin/index.ts';
import type { ProbeVerdict } from '@/modules/platform/broker/index.ts';
import { recordCapabilities, type CapabilityVerdict, type LedgerEntry } from './capability-ledger.ts';

const RECHECK_KEY = 'clusters.capability-recheck-interval';

export const capabilityRecheckSetting = durationSetting({
  key: RECHECK_KEY,
  description:
    "How often the worker that owns a cluster asks one serving node again whether Flotilla's user may read and " +
    'write through management (it changes nothing on the broker).',
  defaultValue: '10m',
  min: '10s',
  max: '24h',
});

export function capabilityRecheckIntervalMs(settings: SettingsReader): number {
  return settings.duration(capabilityRecheckSetting);
}

/** A management call that failed, classified by the broker client. */
export interface ManagementFailure {
  readonly node: string;
  readonly kind: string;
  readonly message: string;
  readonly advice: string;
  readonly snippet: string | null;
}

export interface ManagementEvidence {
  /** Nodes whose management calls answered in this tick. */
  readonly answered: readonly string[];
  readonly failed: readonly ManagementFailure[];
}

/** Kinds that say the broker refused Flotilla's user, as opposed to the network failing. */
const REFUSALS = new Set(['auth-failed', 'forbidden']);

const refusedVerdict = (failure: ManagementFailure): CapabilityVerdict => ({
  value: 'UNAVAILABLE',
  detail: `${failure.node}: ${failure.kind}: ${failure.message}. ${failure.advice}`,
  snippet: failure.snippet,
});

/** The ledger entries a tick's evidence supports; none when it supports nothing (every failure was the network). */
export function managementEntries(evidence: ManagementEvidence): LedgerEntry[] {
  const refused = evidence.failed.filter((failure) => REFUSALS.has(failure.kind));
  if (evidence.answered.length > 0) {
    const alsoRefused =
      refused.length > 0 ? `; refused on ${refused.map((f) => `${f.node} (${f.kind})`).join(', ')}` : '';
    return [
      {
        capability: 'MANAGEMENT_READ',
        verdict: {
          value: 'AVAILABLE',
          detail: `the scrape's management reads are answered${alsoRefused}`,
          snippet: null,
        },
        confirmedBy: 'scrape',
      },
    ];
  }
  const [first] = refused;
  if (!first) return [];
  const entries: LedgerEntry[] = [
    { capability: 'MANAGEMENT_READ', verdict: refusedVerdict(first), confirmedBy: 'scrape' },
  ];
  // A user who cannot sign in cannot write either; a refused read says nothing certain about writes (the recheck asks).
  if (first.kind === 'auth-failed') {
    entries.push({ capability: 'MANAGEMENT_WRITE', verdict: refusedVerdict(first), confirmedBy: 'scrape' });
  }
  return entries;
}

/** Records a scrape tick's evidence; answers whether a verdict changed (the caller sends a `health` signal). */
export async function recordManagementEvidence(
  pool: Pool,
  clusterId: string,
  evidence: ManagementEvidence,
): Promise<boolean> {
  const entries = managementEntries(evidence);
  if (entries.length === 0) return false;
  return inTransaction(pool, (client) => recordCapabilities(client, clusterId, entries));
}

const ledgerVerdictOf = (verdict: ProbeVerdict): CapabilityVerdict =>
  verdict.status === 'AVAILABLE'
    ? { value: 'AVAILABLE', detail: '', snippet: null }
    : verdict.status === 'UNKNOWN'
      ? { value: 'UNKNOWN', detail: verdict.reason, snippet: null }
      : { value: 'UNAVAILABLE', detail: verdict.reason, snippet: verdict.configSnippet ?? null };

/** Records what the scheduled recheck found (read and write asked of one node). */
export async function recordManagementRecheck(
  pool: Pool,
  clusterId: string,
  verdicts: { readonly MANAGEMENT_READ: ProbeVerdict; readonly MANAGEMENT_WRITE: ProbeVerdict },
): Promise<boolean> {
  return inTransaction(pool, (client) =>
    recordCapabilities(client, clusterId, [
      { capability: 'MANAGEMENT_READ', verdict: ledgerVerdictOf(verdicts.MANAGEMENT_READ), confirmedBy: 'recheck' },
      { capability: 'MANAGEMENT_WRITE', verdict: ledgerVerdictOf(verdicts.MANAGEMENT_WRITE), confirmedBy: 'recheck' },
    ]),
  );
}

/**
 * What a broker command's real run says of MANAGEMENT_WRITE: a node that did it proves writes work; a node that
 * refused Flotilla's user (and none that did it) proves they do not. Network failures prove nothing.
 */
export async function recordWriteOutcome(
  pool: Pool,
  clusterId: string,
  outcome: { readonly applied: readonly string[]; readonly failed: readonly ManagementFailure[] },
): Promise<boolean> {
  const refused = outcome.failed.find((failure) => REFUSALS.has(failure.kind));
  const verdict: CapabilityVerdict | undefined =
    outcome.applied.length > 0
      ? {
          value: 'AVAILABLE',
          detail: `a broker command was carried out on ${outcome.applied.join(', ')}`,
          snippet: null,
        }
      : refused
        ? refusedVerdict(refused)
        : undefined;
  if (!verdict) return false;
  return inTransaction(pool, (client) =>
    recordCapabilities(client, clusterId, [{ capability: 'MANAGEMENT_WRITE', verdict, confirmedBy: 'command' }]),
  );
}
