// Send one message to an address or a queue, over the native channel of one serving node, as a broker command:
// audited before the send (the audit keeps the address, the body's kind and size and the property names, never the
// content), a dry run validates and sends nothing, the echo goes through the content policy like any browse. The
// broker's own addresses (the command sequence refuses them) and reserved property names are bad input.
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { ProblemError, type InternalNotifications } from '@/modules/kernel/core/index.ts';
import { reservedPropertyPrefix, type SendRequest, type TypedValue } from '@/modules/platform/broker/index.ts';
import { loadCommandTargets } from '@/modules/platform/clusters/index.ts';
import { runBrokerCommand, type CommandResult, type CommandRuntime } from '@/modules/platform/commands/index.ts';
import type { Database } from '@/base/db/database.ts';
import { viewMessages, type MessageView } from './message-view.ts';

export interface SendInput {
  readonly clusterId: string;
  readonly address: string;
  readonly routingType?: 'ANYCAST' | 'MULTICAST' | undefined;
  readonly nodeId?: string | undefined;
  readonly body:
    | { readonly type: 'text'; readonly text: string }
    | { readonly type: 'json'; readonly json: unknown }
    | { readonly type: 'bytes'; readonly base64: string; readonly contentType?: string | undefined };
  /** Each value checked against its type by the input schema. */
  readonly properties?:
    Readonly<Record<string, { readonly type: string; readonly value: string | number | boolean | null }>> | undefined;
  readonly headers?:
    | {
        readonly durable?: boolean | undefined;
        readonly priority?: number | undefined;
        readonly ttlMs?: number | undefined;
        readonly messageId?: string | undefined;
        readonly correlationId?: string | undefined;
        readonly subject?: string | undefined;
        readonly replyTo?: string | undefined;
        readonly groupId?: string | undefined;
      }
    | undefined;
  readonly dryRun: boolean;
  readonly clear: boolean;
}

function requestOf(input: SendInput): SendRequest {
  const body =
    input.body.type === 'text'
      ? { encoding: 'text' as const, text: input.body.text }
      : input.body.type === 'json'
        ? { encoding: 'json' as const, json: input.body.json }
        : { encoding: 'base64' as const, base64: input.body.base64, contentType: input.body.contentType };
  const headers = input.headers ?? {};
  return {
    address: input.address,
    ...(input.routingType ? { routingType: input.routingType === 'ANYCAST' ? 'anycast' : 'multicast' } : {}),
    body,
    ...(input.properties ? { applicationProperties: input.properties as Readonly<Record<string, TypedValue>> } : {}),
    durable: headers.durable ?? true,
    ...(headers.priority !== undefined ? { priority: headers.priority } : {}),
    ...(headers.ttlMs !== undefined ? { ttlMs: headers.ttlMs } : {}),
    ...(headers.messageId ? { messageId: headers.messageId } : {}),
    ...(headers.correlationId ? { correlationId: headers.correlationId } : {}),
    ...(headers.subject ? { subject: headers.subject } : {}),
    ...(headers.replyTo ? { replyTo: headers.replyTo } : {}),
    ...(headers.groupId ? { groupId: headers.groupId } : {}),
  };
}

function bodyBytes(input: SendInput): Buffer {
  if (input.body.type === 'text') return Buffer.from(input.body.text, 'utf8');
  if (input.body.type === 'json') return Buffer.from(JSON.stringify(input.body.json), 'utf8');
  return Buffer.from(input.body.base64, 'base64');
}

/** A property name the broker keeps for itself (`_AMQ_ROUTE_TO`, `_AMQ_DUPL_ID`, `JMSXUserID`, …) is bad input. */
function refuseReservedProperties(properties: SendInput['properties']): void {
  for (const name of Object.keys(properties ?? {})) {
    const prefix = reservedPropertyPrefix(name);
    if (prefix)
      throw new ProblemError({
        type: 'property-reserved',
        title: 'Reserved property',
        status: 400,
        detail: `The property "${name}" starts with ${prefix}, which the broker reserves for its own headers (routing, duplicate detection, original address, management). Rename it; nothing was sent.`,
        property: name,
      });
  }
}

export interface SendRuntime extends CommandRuntime {
  readonly db: Database;
  readonly notifications: InternalNotifications;
}

export async function sendOne(
  runtime: SendRuntime,
  request: RequestContext,
  input: SendInput,
): Promise<{
  result: CommandResult;
  echo: MessageView;
  governed: Awaited<ReturnType<typeof viewMessages>>['governed'];
}> {
  if (
    input.body.type === 'bytes' &&
    Buffer.from(input.body.base64, 'base64').toString('base64') !== input.body.base64.replace(/\s/g, '')
  )
    throw new ProblemError({
      type: 'validation-failed',
      title: 'Not base64',
      status: 400,
      detail: 'body.base64 is not valid base64.',
    });
  refuseReservedProperties(input.properties);
  const found = await loadCommandTargets(runtime.prisma, input.clusterId, input.nodeId);
  const nodeId = input.nodeId ?? found?.targets[0]?.nodeId;
  const message = requestOf(input);
  const bytes = bodyBytes(input);
  const result = await runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'message.send',
    target: input.address,
    parameters: {
      routingType: input.routingType ?? null,
      bodyType: input.body.type,
      bodyBytes: bytes.length,
      propertyNames: Object.keys(input.properties ?? {}),
      durable: message.durable,
    },
    dryRun: input.dryRun,
    capped: false,
    nodeId,
    topic: 'queues',
    destinations: [input.address],
    estimate: (node) => {
      node.native(); // no native endpoint: the node fails here, in the preview, with the reason
      return Promise.resolve(1);
    },
    apply: async (node) => {
      await node.send(message);
      return { count: 1 };
    },
  });
  const contentType =
    input.body.type === 'json'
      ? 'application/json'
      : input.body.type === 'bytes'
        ? (input.body.contentType ?? 'application/octet-stream')
        : null;
  const { views, governed } = await viewMessages(
    runtime,
    [
      {
        messageId: input.headers?.messageId ?? '',
        position: null,
        content: {
          address: input.address,
          headers: { durable: message.durable, priority: message.priority, ttl: message.ttlMs },
          properties: Object.fromEntries(
            Object.entries(input.properties ?? {}).map(([key, value]) => [key, value.value]),
          ),
          body:
            input.body.type === 'bytes'
              ? { kind: 'bytes', size: bytes.length, contentType: contentType ?? undefined }
              : { kind: 'text', text: bytes.toString('utf8'), contentType: contentType ?? undefined },
        },
        propertyTypes: Object.fromEntries(
          Object.entries(input.properties ?? {}).map(([key, value]) => [key, value.type]),
        ),
        bodyBytes: bytes,
        sizeBytes: bytes.length,
        contentType,
        bodyTruncated: false,
        truncatedFields: [],
      },
    ],
    input.clear,
  );
  return { result, echo: views[0] as MessageView, governed };
}
