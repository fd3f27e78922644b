// What every MCP tool is made of, and the errors the spec asks for. A tool names the module it belongs to (absent
// from the listing while that module is off), its zod arguments (validated here, so a malformed call is JSON-RPC
// -32602 naming the fix), and a handler that calls the same procedures REST calls, as the token's owner.
import type { EffectiveGrant } from '@/modules/kernel/access/index.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Database } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';

/** One procedure of the application router by its dotted path (`queues.purge`), run as the caller. */
export type ProcedureCall = (path: string, input?: unknown) => Promise<unknown>;

/** What the roof hands the MCP edge for one request. */
export interface McpContext {
  readonly registry: ModuleRegistry;
  /** The request as the audit sees it: request id, source address, the token as actor. */
  readonly request: RequestContext;
  /** For the content policy at this exit. */
  readonly runtime: { readonly db: Database; readonly bus: DatabaseBus };
  readonly call: ProcedureCall;
  /** The caller's grants, for tools that check permissions themselves (runtime tools). */
  readonly grants: () => Promise<readonly EffectiveGrant[]>;
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  /** The module whose procedures the tool calls: no listing, no call while it is off. */
  readonly module: string;
  /** What the model reads to choose the tool: short, it counts against the listing budget. */
  readonly description: (context: Pick<McpContext, 'registry'>) => string;
  readonly arguments: Shape;
  readonly annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  readonly run: (args: z.infer<z.ZodObject<Shape>>, context: McpContext) => Promise<unknown>;
}

export function defineTool<Shape extends z.ZodRawShape>(tool: ToolDefinition<Shape>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** A malformed call: JSON-RPC -32602 whose message says what to send instead. */
export function invalidParams(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

/** A call that ran and failed: a normal result with isError, naming the fix. */
export class ToolFailure extends Error {}

export function textResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

/** A server-checked discriminator: a plain string in the schema, its values named when refused. */
export function checkChoice<Value extends string>(
  argument: string,
  value: string,
  allowed: readonly Value[],
  disabled: readonly string[] = [],
): Value {
  if ((allowed as readonly string[]).includes(value)) return value as Value;
  const off = disabled.includes(value) ? ` ${value} belongs to a feature that is turned off.` : '';
  throw invalidParams(`${argument} must be one of: ${allowed.join(', ')}.${off}`);
}

/** A dependent argument: named when missing. */
export function requireArgument<T>(value: T | undefined, message: string): T {
  if (value === undefined || value === '') throw invalidParams(message);
  return value;
}

export const clusterIdArgument = z.string().min(1).max(100).describe('From cluster_health');
