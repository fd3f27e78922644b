// One MCP request: a new server and a stateless streamable-HTTP transport for it (no session id, JSON answers), the
// handlers bound to this caller's context, then both closed. Stateless because tools run as the request's caller:
// nothing of one request may reach the next.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { mcpRuntimeTools } from '../module.ts';
import { callTool, toolListing } from './catalogue.ts';
import { runtimeToolListing } from './runtime-tools.ts';
import { getPrompt, promptListing } from './prompts.ts';
import { readResource, RESOURCE_TEMPLATES, RESOURCES } from './resources.ts';
import type { McpContext } from './tool-kit.ts';

const INSTRUCTIONS =
  'Flotilla: fleets of Apache ActiveMQ Artemis clusters. Call flotilla_help first. Writes preview by default ' +
  '(dryRun=true); a real destructive run needs confirm equal to the subject’s name.';

// The SDK's protocol layer parses a request with the schema it was registered with before its server's own check of a
// tools/call can answer -32602, so a call whose `arguments` were no object (a string, an array, null) answered -32603
// with zod's issue list (found by the MCP fuzzing, issue 34). Registered loosely, the server's check answers -32602.
const LOOSE_CALL_TOOL_REQUEST = CallToolRequestSchema.extend({
  params: z.looseObject({ name: z.unknown(), arguments: z.unknown() }),
});

// The SDK's McpServer turns every error a tool throws into an isError result; the spec wants malformed calls and a
// wrong confirm as JSON-RPC -32602. So the requests are handled on its protocol-level server, by our handlers.
function serverFor(context: McpContext): McpServer {
  const mcp = new McpServer(
    { name: 'flotilla', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const server = mcp.server;
  const runtimeTools = context.registry.contributionsTo(mcpRuntimeTools).map(({ value }) => value);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...toolListing(context), ...(await runtimeToolListing(context, runtimeTools))],
  }));
  // The server's own check (CallToolRequestSchema) has passed when this runs: the name is a string.
  server.setRequestHandler(LOOSE_CALL_TOOL_REQUEST, (request) =>
    callTool(request.params.name as string, request.params.arguments, context, runtimeTools),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri, context));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: promptListing(context) }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(request.params.name, request.params.arguments, context),
  );
  return mcp;
}

/** Answers one POST /mcp (the roof has authenticated the caller and checked the body). */
export async function handleMcpRequest(request: Request, context: McpContext): Promise<Response> {
  const server = serverFor(context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
