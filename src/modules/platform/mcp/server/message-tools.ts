// The message tools: browse_messages, message_body, send_message. Content comes from the messages module's browse
// and send (which apply the content policy, never in clear: an agent has no clear view), and passes the policy once
// more here, at the MCP exit, as the body is turned into text for the model.
import { governMessages } from '@/modules/platform/governance/index.ts';
import { z } from 'zod';
import { commandView } from './command-view.ts';
import { gateArguments, nextStep, passGates } from './gates.ts';
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick } from './project.ts';
import { clusterIdArgument, defineTool, invalidParams, type McpContext, ToolFailure } from './tool-kit.ts';

const PREVIEW_CHARS = 160;
const BODY_CHARS = 20_000;
const SEARCH_PAGES = 5;
const SEARCH_PAGE_SIZE = 200;

function bodyText(body: Record<string, unknown>): string | undefined {
  if (!['text', 'json', 'xml'].includes(String(body.kind)) || typeof body.base64 !== 'string') return undefined;
  return Buffer.from(body.base64, 'base64').toString('utf8');
}

/** The MCP exit's own pass of the content policy over what the model will read. */
async function governed(context: McpContext, address: string, message: Record<string, unknown>, text?: string) {
  const [one] = await governMessages(
    context.runtime,
    [
      {
        address,
        headers: asRow(message.headers),
        properties: asRow(message.properties),
        body: text === undefined ? { kind: 'empty' } : { kind: 'text', text },
      },
    ],
    { clear: false },
  );
  const value = one?.value;
  const body = value?.body;
  const bodyOut =
    body === undefined || body.kind === 'empty'
      ? undefined
      : body.kind === 'withheld'
        ? `(withheld: ${body.reason})`
        : typeof body.value === 'string'
          ? body.value
          : JSON.stringify(body.value);
  return { headers: value?.headers ?? {}, properties: value?.properties ?? {}, body: bodyOut };
}

const HEADER_FIELDS = ['durable', 'priority', 'correlationId', 'subject', 'replyTo', 'creationTime', 'expiration'];

export const browseMessagesTool = defineTool({
  name: 'browse_messages',
  module: 'messages',
  description: () =>
    'Peek at a queue’s messages without consuming them: ids, properties, body preview, masked by the content policy.',
  arguments: {
    clusterId: clusterIdArgument,
    queue: z.string().min(1).max(1000),
    filter: z.string().max(4000).optional().describe('JMS selector'),
    page: z.number().int().min(1).optional(),
    pageSize: z.number().int().min(1).max(100).optional().describe('Default 20'),
  },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId, queue, filter, page, pageSize }, context) => {
    const answer = asRow(
      await callProcedure(context, 'messages.browse', {
        clusterId,
        queue,
        page: page ?? 1,
        pageSize: pageSize ?? 20,
        ...(filter ? { filter } : {}),
      }),
    );
    const messages = [];
    for (const message of asRows(answer.messages)) {
      const body = asRow(message.body);
      const text = bodyText(body);
      const view = await governed(context, queue, message, text?.slice(0, PREVIEW_CHARS));
      messages.push({
        ...pick(message, ['messageId', 'position']),
        headers: pick(view.headers, HEADER_FIELDS),
        properties: view.properties,
        body: { ...pick(body, ['kind', 'sizeBytes', 'withheldReason']), ...(view.body ? { preview: view.body } : {}) },
      });
    }
    return { ...pick(answer, ['channel', 'channelReason', 'nodeName', 'page', 'hasMore']), messages };
  },
});

export const messageBodyTool = defineTool({
  name: 'message_body',
  module: 'messages',
  description: () => 'One message’s whole body and properties (messageId or position from browse_messages), masked.',
  arguments: {
    clusterId: clusterIdArgument,
    queue: z.string().min(1).max(1000),
    messageId: z.string().min(1).max(100).optional(),
    position: z.number().int().min(0).optional(),
  },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId, queue, messageId, position }, context) => {
    if (messageId === undefined && position === undefined) {
      throw invalidParams('message_body needs messageId or position (browse_messages shows both).');
    }
    const wanted = (candidate: Record<string, unknown>) =>
      messageId !== undefined ? candidate.messageId === messageId : candidate.position === position;
    for (let page = 1; page <= SEARCH_PAGES; page++) {
      const answer = asRow(
        await callProcedure(context, 'messages.browse', { clusterId, queue, page, pageSize: SEARCH_PAGE_SIZE }),
      );
      const message = asRows(answer.messages).find(wanted);
      if (message) {
        const body = asRow(message.body);
        const text = bodyText(body);
        const view = await governed(context, queue, message, text);
        const whole = view.body ?? (body.kind === 'withheld' ? `(withheld: ${String(body.withheldReason)})` : '');
        return {
          ...pick(message, ['messageId', 'position']),
          headers: view.headers,
          properties: view.properties,
          body: { ...pick(body, ['kind', 'contentType', 'sizeBytes']), text: whole.slice(0, BODY_CHARS) },
          ...(whole.length > BODY_CHARS ? { cut: `the first ${BODY_CHARS} characters` } : {}),
          ...(message.bodyTruncated === true ? { brokerTruncated: true } : {}),
        };
      }
      if (answer.hasMore !== true) break;
    }
    throw new ToolFailure(
      `Message ${messageId ?? `at position ${String(position)}`} is not among the first ${SEARCH_PAGES * SEARCH_PAGE_SIZE} messages of ${queue}: it may ` +
        'have been consumed. browse_messages lists the current ids.',
    );
  },
});

type Scalar = string | number | boolean;

function typed(value: Scalar): { type: string; value: Scalar } {
  if (typeof value === 'boolean') return { type: 'boolean', value };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'long' : 'double', value };
  return { type: 'string', value };
}

export const sendMessageTool = defineTool({
  name: 'send_message',
  module: 'messages',
  description: () => 'Send one text or JSON message to an address or queue. dryRun defaults to true.',
  arguments: {
    clusterId: clusterIdArgument,
    address: z.string().min(1).max(1000),
    body: z.string().max(1_000_000),
    json: z.boolean().optional().describe('Body is JSON'),
    properties: z.record(z.string().min(1).max(200), z.union([z.string(), z.number(), z.boolean()])).optional(),
    dryRun: gateArguments.dryRun,
  },
  run: async ({ clusterId, address, body, json, properties, dryRun: dryRunArgument }, context) => {
    const subject = { kind: 'address', name: address, destructive: false };
    const { dryRun } = passGates({ dryRun: dryRunArgument }, subject);
    let parsed: unknown;
    if (json) {
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new ToolFailure('body is not JSON: send it as text (json=false) or fix the JSON.');
      }
    }
    const answer = asRow(
      await callProcedure(context, 'messages.send', {
        clusterId,
        address,
        body: json ? { type: 'json', json: parsed } : { type: 'text', text: body },
        ...(properties
          ? { properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, typed(value)])) }
          : {}),
        dryRun,
      }),
    );
    const echo = await governed(context, address, asRow(answer.echo));
    return { ...commandView(answer.result, nextStep(subject)), echoProperties: echo.properties };
  },
});
