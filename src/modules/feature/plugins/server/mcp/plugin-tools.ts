// The running plugins' MCP tools, contributed to mcp.runtime-tools: each tool a manifest declares and its process
// registered, listed for callers who may use it and run in the plugin's process with the caller's grants as the
// call's context. A read-only tool needs the viewer tier's powers everywhere, any other the operator's, and is
// audited before the plugin runs it.
import { globalPermissions } from '@/modules/kernel/access/index.ts';
import { holdsTier } from '@/modules/kernel/plugin/index.ts';
import { openAudit } from '@/modules/kernel/audit/index.ts';
import type { RuntimeTool, RuntimeToolContext, RuntimeToolSource } from '@/modules/platform/mcp/module.ts';
import type { CallContext, RunningPlugin } from '../host/plugin-manager.ts';
import { pluginsOf } from '../process-start.ts';

interface PluginTool extends RuntimeTool {
  readonly plugin: RunningPlugin;
}

function toolsOf(context: RuntimeToolContext): PluginTool[] {
  const running = pluginsOf(context.runtime.bus)?.manager.list() ?? [];
  return running.flatMap((plugin) =>
    plugin.manifest.mcpTools
      .filter((tool) => plugin.process.registered.tools.includes(tool.name))
      .map((tool) => ({
        name: tool.name,
        description: `${tool.description} (plugin ${plugin.manifest.name} ${plugin.version})`,
        readOnly: tool.readOnly,
        plugin,
      })),
  );
}

async function mayUse(context: RuntimeToolContext, tool: PluginTool): Promise<boolean> {
  const held = globalPermissions(await context.grants());
  const catalogue = context.registry.permissionCatalogue().filter((entry) => entry.enabled);
  return holdsTier(held, catalogue, tool.readOnly ? 'viewer' : 'operator');
}

export const pluginToolSource: RuntimeToolSource = {
  list: (context) => toolsOf(context).map(({ name, description, readOnly }) => ({ name, description, readOnly })),
  call(name, args, context) {
    const tool = toolsOf(context).find((candidate) => candidate.name === name);
    if (!tool) return undefined;
    return (async () => {
      if (!(await mayUse(context, tool)))
        throw new Error(`${name} needs the ${tool.readOnly ? 'viewer' : 'operator'} tier's permissions everywhere.`);
      const grants = await context.grants();
      const audit = tool.readOnly
        ? undefined
        : await openAudit(context.runtime.db.prisma, context.request, {
            action: `plugin.${tool.plugin.id}.tool`,
            target: name,
            parameters: args,
          });
      try {
        const result = await tool.plugin.process.callTool(name, args, { grants } satisfies CallContext);
        await audit?.finish({ outcome: 'SUCCEEDED' });
        return result;
      } catch (error) {
        await audit?.finish({ outcome: 'FAILED', error: (error as Error).message });
        throw error;
      }
    })();
  },
};
