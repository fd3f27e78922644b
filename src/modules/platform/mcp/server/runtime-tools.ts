// Tools that exist only at runtime (a runtime plugin's, issue 33): declared by whoever owns them through the
// mcp.runtime-tools point, listed after the built-in catalogue and called when no built-in tool has the name. They
// take one JSON object and answer JSON; the source checks the caller's permissions and audits what changes, as the
// built-in tools do through their procedures. The listing budget covers the built-in tools; these come on top.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './tool-kit.ts';

export interface RuntimeTool {
  readonly name: string;
  readonly description: string;
  readonly readOnly: boolean;
}

/** What a source needs to list and run its tools for this caller. */
export type RuntimeToolContext = McpContext;

export interface RuntimeToolSource {
  list(context: RuntimeToolContext): readonly RuntimeTool[];
  /** Runs the named tool; undefined when this source has no tool of that name. */
  call(name: string, args: Record<string, unknown>, context: RuntimeToolContext): Promise<unknown> | undefined;
}

export interface RuntimeToolSourceDeclaration {
  readonly id: string;
  readonly load: () => Promise<RuntimeToolSource>;
}

async function sourcesOf(declarations: readonly RuntimeToolSourceDeclaration[]) {
  return Promise.all(declarations.map((declaration) => declaration.load()));
}

export async function runtimeToolListing(
  context: RuntimeToolContext,
  declarations: readonly RuntimeToolSourceDeclaration[],
): Promise<Tool[]> {
  const sources = await sourcesOf(declarations);
  return sources.flatMap((source) =>
    source.list(context).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { type: 'object' as const, additionalProperties: true },
      annotations: { readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly },
    })),
  );
}

/** The answer of the runtime tool of that name, or undefined when no source has one. */
export async function callRuntimeTool(
  name: string,
  args: Record<string, unknown>,
  context: RuntimeToolContext,
  declarations: readonly RuntimeToolSourceDeclaration[],
): Promise<{ found: false } | { found: true; result: unknown }> {
  for (const source of await sourcesOf(declarations)) {
    const running = source.call(name, args, context);
    if (running) return { found: true, result: await running };
  }
  return { found: false };
}
