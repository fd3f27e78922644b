// Broker events leave Flotilla only through the content policy: each event's properties and its user go through
// the governance module's one enforcement function (credentials dropped, the rest masked, or shown in clear to a
// caller with message:clear who asks, marked sensitive), its address and queue names through the detectors, on the
// API and on the stream alike. Rows are stored masked
// with their policy version and the original sealed in the vault: a read under that same version without clear
// access starts from the stored masked copy; a clear read, or one under a newer policy, starts from the original.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import {
  governFields,
  governRecords,
  openStoredOriginal,
  policyVersionInForce,
  type Governed,
} from '@/modules/platform/governance/index.ts';
import type { BrokerEventView } from './events.schema.ts';
import type { StoredEvent } from './events-read.ts';
import { plainValues, typedFromGoverned, USER_KEY } from './stored-properties.ts';

export interface GovernedEvents {
  readonly events: BrokerEventView[];
  readonly governed: ReadonlyArray<Governed<Record<string, unknown>>>;
  readonly policyVersion: number;
}

const UNOPENED = { location: 'properties', dataClass: 'other-sensitive', action: 'drop', by: 'vault:does-not-open' };

/** The properties a read starts from, and what the stored copy already hid (empty when starting from the original). */
function sourceOf(event: StoredEvent, clear: boolean, version: number) {
  const { storage } = event;
  const needsOriginal = clear || storage.policyVersion !== version;
  if (needsOriginal && storage.sealed && storage.eventId) {
    try {
      const original = openStoredOriginal(storage.sealed, `broker_event:${storage.eventId}`);
      return { properties: original as BrokerEventView['properties'], hidden: [] };
    } catch {
      // A seal that is not this row's (copied from another) shows nothing: the policy fails closed.
      return { properties: {}, hidden: [UNOPENED] };
    }
  }
  // Rows stored before sealing hold their originals; a masked row under its own version starts from its copy.
  return { properties: event.properties, hidden: storage.sealed ? storage.redactions : [] };
}

export async function governEvents(
  runtime: { readonly db: Database; readonly bus: DatabaseBus },
  events: readonly StoredEvent[],
  options: { readonly clear: boolean },
): Promise<GovernedEvents> {
  const version = await policyVersionInForce(runtime);
  const sources = events.map((event) => sourceOf(event, options.clear, version));
  const governed = await governRecords(
    runtime,
    events.map((event, index) => ({
      address: event.address ?? undefined,
      values: plainValues(sources[index]?.properties ?? {}, event.user),
    })),
    options,
  );
  // The address and queue an event names may carry content too (a queue named after a card number).
  const named = await governFields(runtime, events, ['address', 'queue'], options);
  return {
    events: named.rows.map((event, index) => {
      const values = governed[index]?.value ?? {};
      const view: BrokerEventView & { storage?: unknown } = { ...event };
      delete view.storage; // how the row is stored never leaves
      const source = sources[index];
      const user = event.user === null ? null : typeof values[USER_KEY] === 'string' ? values[USER_KEY] : null;
      return {
        ...view,
        properties: typedFromGoverned(source?.properties ?? {}, values),
        user,
        redactions: [
          ...(source?.hidden ?? []),
          ...(governed[index]?.redactions ?? []),
          ...(named.governed[index]?.redactions ?? []),
        ],
      };
    }),
    governed: [...governed, ...named.governed],
    policyVersion: governed[0]?.policyVersion ?? version,
  };
}
