// Schema-driven fuzzing of the MCP endpoint (issue 34): every listed tool, called by the official SDK client over
// HTTP as an admin's and a viewer's API token, with arguments fast-check makes from the tool's own input schema —
// shaped values, boundaries, wrong types, unknown arguments, huge and unicode strings, and card numbers, IBANs and
// JWTs — plus unknown tool names. Every answer: a result (the SDK checks its shape) or JSON-RPC -32602, never another
// error, never "Flotilla failed to run" (the MCP form of a 500), no stack trace or internal message, and no seeded
// card, IBAN or JWT in clear in any result (an agent has no clear view, docs/governance.md). Writes run as dry runs
// (`dryRun: true`; no broker exists here). Seeded: FUZZ_SEED replays a run, FUZZ_RUNS=n runs n times the cases.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHandler } from '@/server/http/mcp-route.ts';
import { insertFuzzClusters } from '@test/fuzz-clusters.ts';
import { FUZZ_SEED, internalsIn, type JsonSchema, piiIn, piiString, runs, valueArbitrary } from '@test/fuzz.ts';
import { connectMcp, issueToken, type Listener, serveOverHttp, userWithToken } from '@test/mcp-client.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn } from '@test/sign-in.ts';

/** Cases per tool in CI (about 1,050 in all with the unknown names); FUZZ_RUNS multiplies them. */
const CASES_PER_TOOL = runs(64);

let app: SecuredRuntime | undefined;
let listener: Listener | undefined;
const clients: Partial<Record<'admin' | 'viewer', Client>> = {};
let tools: Tool[] = [];
const known: Record<string, string[]> = {};
const findings: string[] = [];
const refusalEchoes: string[] = [];
const outcomes = new Map<string, number>();
let cases = 0;

beforeAll(async () => {
  app = await openSecuredRuntime();
  const prisma = app.runtime.prisma;
  const { clusterId, lostKeyClusterId } = await insertFuzzClusters(prisma);
  Object.assign(known, {
    clusterId: [clusterId, clusterId, lostKeyClusterId, 'fuzz-cluster', '00000000-0000-0000-0000-000000000000'],
    queue: ['orders', 'DLQ'],
    queueName: ['orders', 'DLQ'],
    address: ['orders'],
    // The discriminators are plain strings in the schemas (the server names the allowed values when refused).
    kind: ['nodes', 'queues', 'addresses', 'consumers', 'producers', 'sessions', 'connections'],
    action: ['purge', 'delete', 'move', 'retry', 'pause', 'resume'],
    op: ['list', 'create', 'update', 'delete', 'get', 'set', 'reset'],
    mode: ['address', 'correlation', 'expect', 'unexpect'],
    window: ['15m', '1h', '6h', '24h', '7d'],
    source: ['audit', 'events', 'alerts', 'index', 'live'],
    key: ['audit.retention', 'safety.bulk-cap', 'http.max-body-bytes'],
  });
  const runtime = app.runtime;
  listener = await serveOverHttp(createMcpHandler(() => Promise.resolve(runtime)));
  const adminToken = await issueToken(app.rest, await signIn(app.rest, 'http://127.0.0.1'), 'fuzz-agent');
  const viewerToken = await userWithToken(app.runtime, app.rest, {
    username: 'vera',
    role: 'viewer',
    tokenName: 'fuzz-viewer',
  });
  clients.admin = await connectMcp(listener.url, adminToken);
  clients.viewer = await connectMcp(listener.url, viewerToken);
  tools = (await clients.admin.listTools()).tools;
});

afterAll(async () => {
  await clients.admin?.close();
  await clients.viewer?.close();
  await listener?.close();
  await app?.close();
});

function tally(outcome: string): void {
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
}

async function check(principal: 'admin' | 'viewer', name: string, args: unknown): Promise<void> {
  cases++;
  const client = clients[principal];
  if (!client) throw new Error(`no ${principal} client`);
  const sent = `${name} ${JSON.stringify(args)}`;
  const where = `${name} as ${principal} ${sent.slice(0, 400)}`;
  const problems: string[] = [];
  try {
    const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as {
      isError?: boolean;
      content: { type: string; text?: string }[];
    };
    const text = result.content.map((part) => part.text ?? '').join('\n');
    tally(result.isError === true ? 'isError' : 'result');
    if (/Flotilla failed to run/.test(text)) problems.push(`an internal failure: ${text.slice(0, 300)}`);
    const internals = internalsIn(text);
    if (internals.length > 0) problems.push(`carries ${internals.join(', ')}: ${text.slice(0, 400)}`);
    // No clear view on MCP: a seed in a result is a leak even when the call carried it (a name echoed in a refusal
    // passes the content policy too).
    for (const kind of piiIn(text)) problems.push(`a seeded ${kind} in clear: ${text.slice(0, 300)}`);
  } catch (error) {
    if (!(error instanceof McpError)) {
      problems.push(`not a JSON-RPC error or a result: ${String(error).slice(0, 300)}`);
    } else {
      tally(`McpError ${error.code}`);
      if (error.code !== (ErrorCode.InvalidParams as number)) problems.push(`JSON-RPC ${error.code}: ${error.message}`);
      const internals = internalsIn(error.message);
      if (internals.length > 0) problems.push(`refusal carries ${internals.join(', ')}: ${error.message}`);
      const carried = new Set(piiIn(sent));
      for (const kind of piiIn(error.message)) {
        if (carried.has(kind)) refusalEchoes.push(`${kind}: ${where.slice(0, 200)} → ${error.message.slice(0, 200)}`);
        else problems.push(`a seeded ${kind} in clear the call did not carry: ${error.message.slice(0, 300)}`);
      }
    }
  }
  if (problems.length > 0) findings.push(`${where}\n    ${problems.join('\n    ')}`);
}

function argumentsArbitrary(tool: Tool): fc.Arbitrary<unknown> {
  const schema = tool.inputSchema as JsonSchema;
  const writes = 'dryRun' in (schema.properties ?? {});
  return valueArbitrary(schema, { known, wrongTypeRate: 0.03 }).map((args) =>
    // A write is always a dry run: `dryRun: true` wins over whatever else the case holds.
    writes && typeof args === 'object' && args !== null && !Array.isArray(args) ? { ...args, dryRun: true } : args,
  );
}

describe('MCP fuzzing from the tool schemas', () => {
  it('lists the tools it fuzzes', () => {
    expect(tools.length).toBeGreaterThan(10);
  });

  it('refuses arguments that are no object with -32602, as any malformed call', async () => {
    for (const args of ['x', [], null, 7]) {
      const refusal = await clients.admin
        ?.callTool({ name: 'cluster_health', arguments: args as unknown as Record<string, unknown> })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refusal).toBeInstanceOf(McpError);
      expect((refusal as McpError).code).toBe(ErrorCode.InvalidParams);
    }
  });

  it('answers every generated call with a result or -32602, without an internal failure or a leak', async () => {
    const began = performance.now();
    for (const [index, tool] of tools.entries()) {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('admin', 'admin', 'viewer'), argumentsArbitrary(tool), (principal, args) =>
          check(principal, tool.name, args),
        ),
        { seed: FUZZ_SEED + index, numRuns: CASES_PER_TOOL },
      );
    }
    // Names no tool has, some of them carrying personal data.
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 40 }), piiString), (name) =>
        check('admin', name, { clusterId: known.clusterId?.[0] }),
      ),
      { seed: FUZZ_SEED, numRuns: runs(20) },
    );
    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    console.info(
      `fuzz-mcp: ${cases} calls over ${tools.length} tools in ${seconds} s (seed ${FUZZ_SEED}); ` +
        [...outcomes].map(([outcome, count]) => `${outcome} ×${count}`).join(', '),
    );
    if (refusalEchoes.length > 0)
      console.info(
        `fuzz-mcp refusals echoing the call's own seed (first 10):\n  ${refusalEchoes.slice(0, 10).join('\n  ')}`,
      );
    expect(findings.slice(0, 40), `${findings.length} findings (seed ${FUZZ_SEED})`).toEqual([]);
    // The calls reach the tools' code, not only the argument check.
    expect(outcomes.get('result') ?? 0).toBeGreaterThan(cases / 20);
  }, 600_000);
});
