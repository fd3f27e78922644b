// Browsing a queue over the management channel (QueueControl.browse). The broker cuts every string property, the
// body preview and PropertiesText to management-message-attribute-size-limit characters (default 256) and appends
// ", + <n> more"; a reader must never mistake such a cut value for the message. Each message therefore says whether
// anything was cut, and the result carries the address-setting snippet that raises the limit.
import type { ManagementClient } from './management-client.ts';
import { quoteObjectNameValue } from './management-client.ts';
import { attributeText } from './broker-operations.ts';

export interface BrowseTarget {
  readonly address: string;
  readonly queue: string;
  readonly routingType: 'ANYCAST' | 'MULTICAST';
}

interface BrowsedMessage {
  readonly messageId: string;
  /** The rest of the broker's message JSON (text, StringProperties, …) as received. */
  readonly raw: Record<string, unknown>;
  /** True when the body preview, a property or PropertiesText was cut by the broker's size limit. */
  readonly bodyTruncated: boolean;
  readonly truncatedFields: readonly string[];
}

export interface ManagementBrowseResult {
  readonly channel: 'management';
  readonly messages: readonly BrowsedMessage[];
  /** The broker's limit for this address (characters; -1 = none), when it could be read. */
  readonly attributeSizeLimit: number | undefined;
  /** Present when any message was cut: broker.xml snippet that lifts the limit for this address. */
  readonly raiseLimitSnippet: string | undefined;
}

// JsonUtil.truncateString appends exactly this suffix.
const TRUNCATION_SUFFIX = /, \+ \d+ more$/;

export function queueObjectName(brokerObjectName: string, target: BrowseTarget): string {
  return [
    brokerObjectName,
    'component=addresses',
    `address=${quoteObjectNameValue(target.address)}`,
    'subcomponent=queues',
    `routing-type=${quoteObjectNameValue(target.routingType.toLowerCase())}`,
    `queue=${quoteObjectNameValue(target.queue)}`,
  ].join(',');
}

function raiseLimitSnippet(address: string): string {
  return `<!-- etc/broker.xml: show whole bodies and properties in management browse (-1 = no limit; each browsed
     message is then held in memory whole, so prefer a bound such as 1048576) -->
<address-settings>
  <address-setting match="${address}">
    <management-message-attribute-size-limit>1048576</management-message-attribute-size-limit>
  </address-setting>
</address-settings>`;
}

/** Names of the fields of one browsed message that carry the broker's truncation suffix. */
export function findTruncatedFields(message: Record<string, unknown>): string[] {
  const truncated: string[] = [];
  for (const [field, value] of Object.entries(message)) {
    if (typeof value === 'string' && TRUNCATION_SUFFIX.test(value)) truncated.push(field);
    if (field.endsWith('Properties') && value && typeof value === 'object') {
      for (const [key, property] of Object.entries(value as Record<string, unknown>)) {
        if (typeof property === 'string' && TRUNCATION_SUFFIX.test(property)) truncated.push(`${field}.${key}`);
      }
    }
  }
  return truncated;
}

/** One page (1-based) of a queue's messages, with an optional core filter, plus the address's size limit. */
export async function browseQueue(
  client: ManagementClient,
  target: BrowseTarget,
  options: { page?: number; pageSize?: number; filter?: string } = {},
): Promise<ManagementBrowseResult> {
  const brokerMbean = await client.brokerObjectName();
  const [browse, settings] = await client.call([
    {
      type: 'exec',
      mbean: queueObjectName(brokerMbean, target),
      operation: 'browse(int,int,java.lang.String)',
      arguments: [options.page ?? 1, options.pageSize ?? 50, options.filter ?? null],
    },
    {
      type: 'exec',
      mbean: brokerMbean,
      operation: 'getAddressSettingsAsJSON(java.lang.String)',
      arguments: [target.address],
    },
  ]);
  if (!browse?.ok) throw browse?.error ?? new Error('browse returned nothing');
  const rows = Array.isArray(browse.value) ? (browse.value as Array<Record<string, unknown>>) : [];
  const messages = rows.map((raw) => {
    const truncatedFields = findTruncatedFields(raw);
    return { messageId: attributeText(raw.messageID), raw, bodyTruncated: truncatedFields.length > 0, truncatedFields };
  });
  const limit = settings?.ok ? readSizeLimit(settings.value) : undefined;
  const anyTruncated = messages.some((message) => message.bodyTruncated);
  return {
    channel: 'management',
    messages,
    attributeSizeLimit: limit,
    raiseLimitSnippet: anyTruncated ? raiseLimitSnippet(target.address) : undefined,
  };
}

function readSizeLimit(raw: unknown): number | undefined {
  try {
    const value = (JSON.parse(String(raw)) as { managementMessageAttributeSizeLimit?: unknown })
      .managementMessageAttributeSizeLimit;
    return typeof value === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

export type ManyBrowseResult =
  | { readonly target: BrowseTarget; readonly ok: true; readonly messages: readonly BrowsedMessage[] }
  | { readonly target: BrowseTarget; readonly ok: false; readonly error: Error };

/**
 * The same page of several queues of one node in ONE management POST (one browse per queue, the filter pushed down
 * to each): a fan-out read costs a POST per node per page, not per queue. A queue that fails (removed since it was
 * listed) answers its error beside the others.
 */
export async function browseQueues(
  client: ManagementClient,
  targets: readonly BrowseTarget[],
  options: { page: number; pageSize: number; filter?: string | undefined },
): Promise<ManyBrowseResult[]> {
  if (targets.length === 0) return [];
  const brokerMbean = await client.brokerObjectName();
  const results = await client.call(
    targets.map((target) => ({
      type: 'exec' as const,
      mbean: queueObjectName(brokerMbean, target),
      operation: 'browse(int,int,java.lang.String)',
      arguments: [options.page, options.pageSize, options.filter ?? null],
    })),
  );
  return targets.map((target, index): ManyBrowseResult => {
    const result = results[index];
    if (!result?.ok) return { target, ok: false, error: result?.error ?? new Error('browse returned nothing') };
    const rows = Array.isArray(result.value) ? (result.value as Array<Record<string, unknown>>) : [];
    const messages = rows.map((raw) => {
      const truncatedFields = findTruncatedFields(raw);
      return {
        messageId: attributeText(raw.messageID),
        raw,
        bodyTruncated: truncatedFields.length > 0,
        truncatedFields,
      };
    });
    return { target, ok: true, messages };
  });
}
