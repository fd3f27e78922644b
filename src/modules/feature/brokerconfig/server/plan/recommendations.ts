// The Recommended tab (spec: Broker configuration management, item 2): settings that prevent a known failure, each
// with whether the document already has it and the document with it taken, which the operator can save as a revision.
// They act at "#", the one match every address falls back to (a more specific declared match can still override).
import type { AddressSettingFields, ConfigDocument } from '../model/document.ts';

export interface RecommendationContext {
  readonly clustered: boolean;
  readonly production: boolean;
  /** The broker's data disk, when known: paging limits should stay below it. */
  readonly diskLimitBytes?: number;
}

export interface Recommendation {
  readonly id: string;
  readonly title: string;
  readonly explanation: string;
  /** The failure it prevents. */
  readonly prevents: string;
  readonly satisfied: boolean;
  /** The document with the recommendation taken (the same document when satisfied). */
  readonly proposal: ConfigDocument;
}

const ROOT = '#';
const MiB = 1024 * 1024;
const MAX_ATTEMPTS = 100;

const rootOf = (document: ConfigDocument): AddressSettingFields =>
  document.addressSettings.find((item) => item.match === ROOT)?.settings ?? {};

/** The document with fields set at "#" (the entry created first when missing; its other fields kept). */
function withRootSettings(document: ConfigDocument, fields: AddressSettingFields): ConfigDocument {
  const exists = document.addressSettings.some((item) => item.match === ROOT);
  const addressSettings = exists
    ? document.addressSettings.map((item) =>
        item.match === ROOT ? { ...item, settings: { ...item.settings, ...fields } } : item,
      )
    : [{ match: ROOT, settings: fields }, ...document.addressSettings];
  return { ...document, addressSettings };
}

function recommendation(
  document: ConfigDocument,
  base: Omit<Recommendation, 'proposal'>,
  propose: () => ConfigDocument,
): Recommendation {
  return { ...base, proposal: base.satisfied ? document : propose() };
}

const bounded = (value: number | undefined) => value !== undefined && value >= 1 && value <= MAX_ATTEMPTS;

export function recommend(document: ConfigDocument, context: RecommendationContext): Recommendation[] {
  const root = rootOf(document);
  const list: Recommendation[] = [];

  list.push(
    recommendation(
      document,
      {
        id: 'dead-letter-and-expiry-at-root',
        title: 'A dead-letter and an expiry address at "#"',
        explanation:
          'Without a dead-letter address, a message that fails maxDeliveryAttempts times is acknowledged and dropped ' +
          '(AMQ222150); without an expiry address an expired message is dropped the same way (AMQ222147). Set both ' +
          'at "#" so every address has a place to put them.',
        prevents: 'poison and expired messages silently deleted',
        satisfied: root.deadLetterAddress !== undefined && root.expiryAddress !== undefined,
      },
      () =>
        withRootSettings(document, {
          deadLetterAddress: root.deadLetterAddress ?? 'DLQ',
          expiryAddress: root.expiryAddress ?? 'ExpiryQueue',
        }),
    ),
  );

  const unbounded = document.addressSettings.filter(
    (item) => item.settings.maxDeliveryAttempts !== undefined && !bounded(item.settings.maxDeliveryAttempts),
  );
  list.push(
    recommendation(
      document,
      {
        id: 'bounded-delivery-attempts',
        title: `maxDeliveryAttempts set between 1 and ${MAX_ATTEMPTS}`,
        explanation:
          'Left unset, the broker applies its default of 10 without saying so; -1 redelivers a poison message ' +
          `forever, and a very high value keeps it cycling almost as long. Declare a value between 1 and ` +
          `${MAX_ATTEMPTS} at "#" (and wherever another match sets one).`,
        prevents: 'a poison message redelivered forever, blocking its consumers',
        satisfied: bounded(root.maxDeliveryAttempts) && unbounded.length === 0,
      },
      () => {
        const atRoot = withRootSettings(document, {
          maxDeliveryAttempts: bounded(root.maxDeliveryAttempts) ? root.maxDeliveryAttempts : 10,
        });
        return {
          ...atRoot,
          addressSettings: atRoot.addressSettings.map((item) => {
            const value = item.settings.maxDeliveryAttempts;
            if (value === undefined || bounded(value)) return item;
            return {
              ...item,
              settings: { ...item.settings, maxDeliveryAttempts: value > MAX_ATTEMPTS ? MAX_ATTEMPTS : 10 },
            };
          }),
        };
      },
    ),
  );

  if (context.clustered) {
    list.push(
      recommendation(
        document,
        {
          id: 'redistribution-delay',
          title: 'redistributionDelay set at "#" on a cluster',
          explanation:
            'The broker default is -1: messages on a node whose consumers left are never redistributed to nodes ' +
            'that have consumers. 0 moves them at once; a few seconds lets a reconnecting consumer come back first.',
          prevents: 'messages stranded on a node without consumers',
          satisfied: root.redistributionDelay !== undefined && root.redistributionDelay >= 0,
        },
        () => withRootSettings(document, { redistributionDelay: 0 }),
      ),
    );
  }

  const disk = context.diskLimitBytes;
  const below = (value: number | undefined) => value !== undefined && value > 0 && (disk === undefined || value < disk);
  const pageSize = root.pageSizeBytes ?? 10 * MiB;
  list.push(
    recommendation(
      document,
      {
        id: 'paging-limits',
        title: 'Paging limits at "#"',
        explanation:
          'maxSizeBytes bounds what an address holds in memory before it pages (unset: -1, bounded only by the ' +
          'global limit); pageLimitBytes with a pageFullMessagePolicy bounds what it pages to disk. Without them one ' +
          `busy address can fill the broker's disk${disk === undefined ? '' : ` (${Math.round(disk / MiB)} MiB here)`}.`,
        prevents: 'a full disk that stops the whole broker',
        satisfied: below(root.maxSizeBytes) && below(root.pageLimitBytes),
      },
      () => {
        const maxSizeBytes = below(root.maxSizeBytes)
          ? root.maxSizeBytes
          : Math.max(pageSize, Math.min(100 * MiB, disk === undefined ? Infinity : Math.floor(disk / 10)));
        const pageLimitBytes = below(root.pageLimitBytes)
          ? root.pageLimitBytes
          : disk === undefined
            ? 1024 * MiB
            : Math.floor(disk / 2);
        return withRootSettings(document, {
          maxSizeBytes,
          pageLimitBytes,
          pageFullMessagePolicy: root.pageFullMessagePolicy ?? 'FAIL',
        });
      },
    ),
  );

  if (context.production) {
    list.push(
      recommendation(
        document,
        {
          id: 'no-auto-create-in-production',
          title: 'No auto-created queues and addresses in production at "#"',
          explanation:
            'With auto-create on (the default), a typo in a client creates a new address and queue that nobody ' +
            'consumes. Off, a missing address or queue fails with NOT_FOUND instead; temporary queues are exempt. ' +
            'Declare the queues the applications use first, and mind responders that re-create reply queues.',
          prevents: 'messages piling up on addresses created by mistake',
          satisfied: root.autoCreateQueues === false && root.autoCreateAddresses === false,
        },
        () => withRootSettings(document, { autoCreateQueues: false, autoCreateAddresses: false }),
      ),
    );
  }
  return list;
}
