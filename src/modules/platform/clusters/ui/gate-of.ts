// The gate of a cluster's write controls from its capability ledger (pure; capability-gate.tsx reads the ledger and
// shows it): the worst of the capabilities a control needs decides, UNKNOWN keeps it enabled with what is uncertain,
// UNAVAILABLE disables it with the reason and the snippet that would change it.
/** The capabilities a write control can depend on: management writes, and native message I/O for sending. */
export type GatedCapability = 'MANAGEMENT_WRITE' | 'MESSAGE_IO';
type Value = 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN';

export interface CapabilityGate {
  /** The worst of the capabilities asked for. AVAILABLE while the ledger loads or cannot be read: the server still
   *  refuses what the broker refuses, so nothing is blocked on a guess. */
  readonly value: Value;
  /** The capability that decided the value (the first one not AVAILABLE). */
  readonly capability: GatedCapability | undefined;
  readonly disabled: boolean;
  /** What is uncertain, or why the control is off; undefined when AVAILABLE. */
  readonly reason: string | undefined;
  /** The broker configuration that would change an UNAVAILABLE answer. */
  readonly snippet: string | null;
}

const WHAT: Record<GatedCapability, string> = {
  MANAGEMENT_WRITE: 'writes',
  MESSAGE_IO: 'sending messages (native message I/O)',
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const RANK: Record<Value, number> = { AVAILABLE: 0, UNKNOWN: 1, UNAVAILABLE: 2 };

export const OPEN: CapabilityGate = {
  value: 'AVAILABLE',
  capability: undefined,
  disabled: false,
  reason: undefined,
  snippet: null,
};

export interface LedgerRow {
  readonly capability: string;
  readonly value: Value;
  readonly detail: string;
  readonly snippet: string | null;
}

/** The gate of the capabilities asked for, from the ledger rows (pure: the hook below feeds it). */
export function gateOf(
  rows: readonly LedgerRow[] | undefined,
  capabilities: readonly GatedCapability[],
): CapabilityGate {
  let worst: { row: LedgerRow; capability: GatedCapability } | undefined;
  for (const capability of capabilities) {
    const row = rows?.find((candidate) => candidate.capability === capability);
    if (!row || row.value === 'AVAILABLE') continue;
    if (!worst || RANK[row.value] > RANK[worst.row.value]) worst = { row, capability };
  }
  if (!worst) return OPEN;
  const { row, capability } = worst;
  const detail = row.detail.trim().replace(/\.$/, '');
  const reason =
    row.value === 'UNKNOWN'
      ? `${capitalised(WHAT[capability])} not confirmed yet: ${detail || 'no broker command has shown it either way'}`
      : `${capitalised(WHAT[capability])} unavailable on this cluster: ${detail || 'the brokers refuse them'}`;
  return {
    value: row.value,
    capability,
    disabled: row.value === 'UNAVAILABLE',
    reason,
    snippet: row.value === 'UNAVAILABLE' ? row.snippet : null,
  };
}
