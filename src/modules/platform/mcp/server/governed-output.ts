// The MCP exit's one pass of the content policy over everything a tool or a resource answers, never in clear (an
// agent has no clear view): the services it calls govern their own answers (message content, resource lists,
// events), and this pass catches what a service shows as it is (a queue grid's names, a name echoed in a refusal).
// Masked values hold nothing the detectors find again, so a second pass changes nothing already governed.
import { governFields } from '@/modules/platform/governance/index.ts';
import type { McpContext } from './tool-kit.ts';

export async function governedOutput<Value>(context: Pick<McpContext, 'runtime'>, value: Value): Promise<Value> {
  const { rows } = await governFields(context.runtime, [{ value }], ['value'], { clear: false });
  return rows[0]?.value ?? value;
}
