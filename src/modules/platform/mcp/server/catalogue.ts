// The tool catalogue: every tool of the MCP surface, the listing an agent reads (only tools whose module is on), and
// a call's path from arguments to result. Arguments are validated here against each tool's zod shape, so a
// malformed call is JSON-RPC -32602 before anything runs.
import { type CallToolResult, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { activityLogTool } from './activity-tool.ts';
import { alertRuleTool, settingTool } from './admin-tools.ts';
import { configDiffTool } from './config-diff-tool.ts';
import { helpTool } from './help-tool.ts';
import { browseMessagesTool, messageBodyTool, sendMessageTool } from './message-tools.ts';
import { governedOutput } from './governed-output.ts';
import { queueActionTool } from './queue-action-tool.ts';
import { queryMessagesTool } from './query-tool.ts';
import { clusterHealthTool, diagnoseQueueTool, listResourcesTool, metricSeriesTool } from './read-tools.ts';
import { traceRequestReplyTool } from './request-reply-tool.ts';
import { routeMessageTool } from './route-message-tool.ts';
import { callRuntimeTool, type RuntimeToolSourceDeclaration } from './runtime-tools.ts';
import { invalidParams, type McpContext, textResult, ToolFailure, type ToolDefinition } from './tool-kit.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('mcp');

export const TOOLS: readonly ToolDefinition[] = [
  clusterHealthTool,
  listResourcesTool,
  diagnoseQueueTool,
  metricSeriesTool,
  browseMessagesTool,
  messageBodyTool,
  queryMessagesTool,
  traceRequestReplyTool,
  configDiffTool,
  routeMessageTool,
  activityLogTool,
  queueActionTool,
  sendMessageTool,
  alertRuleTool,
  settingTool,
  helpTool,
];

function enabledTools(context: Pick<McpContext, 'registry'>): ToolDefinition[] {
  return TOOLS.filter((tool) => context.registry.isEnabled(tool.module));
}

// Length and count bounds (and the refusal of unknown arguments) are enforced by the server (and named when refused); left out of the listing they cost
// no tokens on every conversation.
const BOUNDS = new Set(['$schema', 'minLength', 'maxLength', 'maxItems', 'propertyNames']);

function slim(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(slim);
  if (typeof node !== 'object' || node === null) return node;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (BOUNDS.has(key) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)) continue;
    if (key === 'additionalProperties' && value === false) continue; // unknown arguments are refused by name anyway
    kept[key] = slim(value);
  }
  return kept;
}

function inputSchemaOf(tool: ToolDefinition): Tool['inputSchema'] {
  return slim(z.toJSONSchema(z.strictObject(tool.arguments), { io: 'input' })) as Tool['inputSchema'];
}

/** tools/list: the tools of enabled modules, with their argument schemas. */
export function toolListing(context: Pick<McpContext, 'registry'>): Tool[] {
  return enabledTools(context).map((tool) => ({
    name: tool.name,
    description: tool.description(context),
    inputSchema: inputSchemaOf(tool),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  }));
}

/** tools/call: validate, run as the caller, answer a projection; execution failures are results with isError. */
export async function callTool(
  name: string,
  args: unknown,
  context: McpContext,
  runtimeTools: readonly RuntimeToolSourceDeclaration[] = [],
): Promise<CallToolResult> {
  const tool = enabledTools(context).find((candidate) => candidate.name === name);
  if (!tool && typeof args === 'object' && args !== null && !Array.isArray(args)) {
    try {
      const answer = await callRuntimeTool(name, args as Record<string, unknown>, context, runtimeTools);
      if (answer.found) return textResult(await governedOutput(context, answer.result));
    } catch (error) {
      if (error instanceof McpError) throw error;
      return { ...textResult(await governedOutput(context, (error as Error).message)), isError: true };
    }
  }
  if (!tool) {
    const names = enabledTools(context).map((candidate) => candidate.name);
    // The name as the caller gave it passes the content policy too: a refusal is an answer.
    const shown = JSON.stringify(await governedOutput(context, name));
    throw invalidParams(`There is no tool ${shown} here. Tools: ${names.join(', ')}.`);
  }
  const parsed = z.strictObject(tool.arguments).safeParse(args ?? {});
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`);
    throw invalidParams(`Invalid arguments for ${name}: ${errors.join('; ')}. flotilla_help explains the tools.`);
  }
  try {
    return textResult(await governedOutput(context, await tool.run(parsed.data, context)));
  } catch (error) {
    if (error instanceof ToolFailure)
      return { ...textResult(await governedOutput(context, error.message)), isError: true };
    if (error instanceof McpError) throw error;
    // Anything else says nothing of its cause to the agent; the log has it under the request id.
    log.error({ err: error, tool: name }, 'tool failed');
    return {
      ...textResult(
        `Flotilla failed to run ${name} (request ${context.request.requestId}). Try again; if it persists, report that request id.`,
      ),
      isError: true,
    };
  }
}
