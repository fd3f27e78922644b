// The spec's MCP listing budget, checked on every test run: the whole tool listing (every feature on, so every tool
// and every discriminator value listed) at most about 2,000 tokens, and no tool over 200, estimated as characters
// divided by 4. The figures are printed so docs/performance.md can quote them.
import { describe, expect, it } from 'vitest';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { TOOLS, toolListing } from './catalogue.ts';

const everythingOn = { isEnabled: () => true } as unknown as ModuleRegistry;
const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

describe('the MCP tool listing budget', () => {
  const listing = toolListing({ registry: everythingOn });
  const perTool = listing.map((tool) => ({ name: tool.name, tokens: tokens(tool) }));
  const total = tokens({ tools: listing });

  it('lists every tool when every feature is on', () => {
    expect(listing.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
  });

  it('stays within about 2,000 tokens in all and 200 per tool', () => {
    console.log(
      `[mcp] tool listing: ${total} tokens for ${listing.length} tools (budget 2000); per tool: ` +
        perTool.map((tool) => `${tool.name} ${tool.tokens}`).join(', '),
    );
    expect(total).toBeLessThanOrEqual(2_000);
    expect(perTool.filter((tool) => tool.tokens > 200)).toEqual([]);
  });
});
