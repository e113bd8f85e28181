import { createRoute, z } from "@hono/zod-openapi";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { AGENT_DISCLAIMER, MSE_AGENT_TOOLS, RECORD_AGENT_TOOLS } from "@svc/agents";
import { ToolInputError } from "@svc/engines";
import {
  ApiError,
  type AppEnv,
  ErrorEnvelopeSchema,
  errorResponses,
  jsonAnswer,
  rateLimitHeaders,
  type ServiceApp,
} from "@svc/http";
import type { ChatTool } from "@svc/model";
import type { Context } from "hono";
import type { Logger } from "pino";

/**
 * The deterministic engine tools over the Model Context Protocol (decision 52): POST /v1/mcp
 * speaks MCP's Streamable HTTP transport, so an external AI agent can list the same tools the
 * service's own agents use and call the engines directly. Secret keys only and rate-limited like
 * every /v1 route: the request guard admits the caller before this handler runs, and each
 * JSON-RPC message is one request against the key's limit, because a request carries exactly one
 * message: a JSON-RPC batch (a JSON array) is refused before any message in it runs (decision 82).
 *
 * Stateless, the way the SDK documents stateless servers: a fresh server and transport per
 * request, no session id, JSON answers instead of an SSE stream (every tool answers at once).
 * GET (a server-to-client stream) and DELETE (ending a session) have nothing to serve, so only
 * POST is registered and the service answers them 405 with `Allow: POST`.
 */

export const MCP_PATH = "/v1/mcp";

/** Every tool the MCP server lists: the record-level agents' tools, then the MSE agent's. */
export const MCP_TOOLS: readonly ChatTool[] = [...RECORD_AGENT_TOOLS, ...MSE_AGENT_TOOLS];

const SERVER_INFO = { name: "clinical-intelligence-service", version: "1" };

const SERVER_INSTRUCTIONS = `Deterministic clinical engines of the Clinical Intelligence Service. Each tool is a pure function: it reads only its arguments, stores nothing and answers the same way every time. Call the get* tools to learn what the engines recognise. ${AGENT_DISCLAIMER}`;

/** Every engine tool reads only its input and writes nothing (hints for the calling agent). */
const ENGINE_TOOL_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

// ---------------------------------------------------------------------------------------------
// OpenAPI: the operation is documented, its JSON-RPC messages loosely (MCP defines them).

const JsonRpcId = z.union([z.string(), z.number().int()]);

const JsonRpcMessageSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: JsonRpcId.optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("McpJsonRpcMessage", {
    description:
      "A JSON-RPC 2.0 message of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`, notifications). See docs/mcp.md.",
  });

const JsonRpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: JsonRpcId.nullable(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string() }).optional(),
  })
  .openapi("McpJsonRpcResponse");

const route = createRoute({
  method: "post",
  operationId: "callMcp",
  path: MCP_PATH,
  tags: ["Agents"],
  summary: "Call the MCP server",
  description:
    "MCP server: the deterministic engine tools. Model Context Protocol over Streamable HTTP (stateless, JSON answers). Send `Accept: application/json, text/event-stream` (no Accept header, or `*/*`, counts as both). Lists and runs the tools the agents use (checkInteractions, evaluatePanel, scoreInstruments, scoreRelapse, ...); a tool that cannot score its input answers a result with `isError: true`. One JSON-RPC message per request, counted against the key's rate limit; a batch (a JSON array) is refused with JSON-RPC error -32600 and none of its messages runs. Secret keys only; publishable keys get 403. GET and DELETE answer 405.",
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: JsonRpcMessageSchema,
          example: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
        },
      },
    },
  },
  responses: {
    200: jsonAnswer("The JSON-RPC response to a request", JsonRpcResponseSchema),
    202: { description: "A notification or response accepted (no body)", headers: rateLimitHeaders },
    ...errorResponses(402, 413),
    400: {
      description:
        "invalid_request (envelope) from the body checks, or a JSON-RPC error: -32600 for a batch (a JSON array; MCP 2025-06-18 removed batching, none of its messages runs), -32700 for a message that is not valid JSON-RPC",
      content: { "application/json": { schema: z.union([ErrorEnvelopeSchema, JsonRpcResponseSchema]) } },
    },
    406: {
      description:
        "JSON-RPC error: an Accept header that names types must list application/json and text/event-stream (none, or `*/*`, accepts both)",
      content: { "application/json": { schema: JsonRpcResponseSchema } },
    },
  },
});

// ---------------------------------------------------------------------------------------------
// Tools

interface ToolRun {
  logger: Logger;
  requestId: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An engine answer as MCP content: JSON text for every client, and the object itself as structured content. */
function toolAnswer(output: unknown): CallToolResult {
  const answer: CallToolResult = { content: [{ type: "text", text: JSON.stringify(output) }] };
  if (isPlainObject(output)) answer.structuredContent = output;
  return answer;
}

/**
 * A tool that could not answer, as an MCP tool error (the calling agent reads it and can correct
 * its arguments) rather than a failed request. Input the engine cannot score says why, naming
 * the instrument or entity; anything else is logged by name only and answered generically, like
 * a 500: an internal message is never echoed or logged, as it may hold input values.
 */
function toolFailure(tool: ChatTool, error: unknown, run: ToolRun): CallToolResult {
  if (error instanceof ToolInputError) {
    return {
      isError: true,
      content: [{ type: "text", text: error.message }],
      structuredContent: { error: { code: "invalid_request", message: error.message, issues: error.issues } },
    };
  }
  run.logger.error(
    {
      requestId: run.requestId,
      tool: tool.name,
      errName: error instanceof Error ? error.name : typeof error,
    },
    "mcp tool failed",
  );
  const message = `${tool.name} failed on our side. Retry with backoff and quote the requestId ${run.requestId}.`;
  return { isError: true, content: [{ type: "text", text: message }] };
}

async function runTool(tool: ChatTool, input: unknown, run: ToolRun): Promise<CallToolResult> {
  try {
    return toolAnswer(await tool.execute(input));
  } catch (error) {
    return toolFailure(tool, error, run);
  }
}

/**
 * One MCP server with every engine tool, registered from its ChatTool definition: name,
 * description and zod input schema (the SDK validates arguments with it and publishes it as
 * JSON Schema; arguments that fail it come back as a tool error naming the fields).
 */
function engineToolServer(sdk: McpSdk, run: ToolRun): McpServer {
  const server = new sdk.McpServer(SERVER_INFO, { instructions: SERVER_INSTRUCTIONS });
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.inputSchema, annotations: ENGINE_TOOL_ANNOTATIONS },
      (input: unknown) => runTool(tool, input, run),
    );
  }
  return server;
}

/**
 * The MCP SDK's server and transport, loaded on the first MCP request rather than at start
 * (~30 MB that a replica nobody calls over MCP does not need).
 */
let mcpSdk: Promise<McpSdk> | undefined;
interface McpSdk {
  McpServer: typeof import("@modelcontextprotocol/sdk/server/mcp.js").McpServer;
  Transport: typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport;
}
function loadMcpSdk(): Promise<McpSdk> {
  mcpSdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]).then(([server, transport]) => ({
    McpServer: server.McpServer,
    Transport: transport.WebStandardStreamableHTTPServerTransport,
  }));
  return mcpSdk;
}

// ---------------------------------------------------------------------------------------------
// The route

/**
 * A JSON-RPC batch (a JSON array body, empty or of one message included) is refused whole with
 * JSON-RPC "Invalid Request" before the SDK sees it (decision 82). MCP removed batching in its
 * 2025-06-18 revision (the Streamable HTTP POST body is one request, notification or response),
 * and the SDK's transport would otherwise run up to 100 messages for one request of the key's
 * rate limit. The status and shape follow the transport's own refusals (400, `id: null`).
 */
export const BATCH_REFUSED_CODE = -32600;
const BATCH_REFUSED_MESSAGE =
  "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed batching); send one message per request.";

function refuseBatch(c: Context<AppEnv>): Response {
  return c.json(
    { jsonrpc: "2.0", id: null, error: { code: BATCH_REFUSED_CODE, message: BATCH_REFUSED_MESSAGE } },
    400,
  );
}

/** The parsed body; a request without one is refused like any other body that is not JSON. */
async function jsonRpcMessage(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    const message = "The body is not valid JSON.";
    throw new ApiError("invalid_request", message, { issues: [{ path: "", message }] });
  }
}

/** What MCP's Streamable HTTP transport requires a client to accept (it answers 406 otherwise). */
const MCP_ACCEPT = "application/json, text/event-stream";

// A client that sends no Accept header, or one with */*, accepts any answer (RFC 9110, 12.5.1), so
// it is given the pair the transport checks for: a browser's fetch and the API reference's "Test
// Request" send */*. A list that names types without the wildcard keeps the transport's rule. The
// body is already parsed, so the request is rebuilt without one.
function withMcpAccept(request: Request): Request {
  const accept = request.headers.get("accept");
  const acceptsAnything = accept === null || accept.trim() === "" || /(^|,)\s*\*\/\*\s*(;|,|$)/.test(accept);
  if (!acceptsAnything) return request;
  const headers = new Headers(request.headers);
  headers.set("accept", MCP_ACCEPT);
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

/**
 * One JSON-RPC message through a fresh server and transport. The request guard has already read
 * and screened the body (c.req.json() answers the parsed value), so it is handed over as
 * `parsedBody`; the transport's answer is rebuilt on the context so the headers set before the
 * handler (request id, rate limit) stay on it.
 */
async function serveMcpMessage(c: Context<AppEnv>, service: ServiceApp): Promise<Response> {
  const message = await jsonRpcMessage(c);
  if (Array.isArray(message)) return refuseBatch(c);
  const sdk = await loadMcpSdk();
  const server = engineToolServer(sdk, { logger: service.deps.logger, requestId: c.get("requestId") });
  const transport = new sdk.Transport({ enableJsonResponse: true });
  try {
    await server.connect(transport);
    const answer = await transport.handleRequest(withMcpAccept(c.req.raw), { parsedBody: message });
    // JSON answers are complete here, so closing the server below cannot cut one short.
    return c.newResponse(answer.body === null ? null : await answer.text(), answer);
  } finally {
    await server.close();
  }
}

/** POST /v1/mcp: documented in the OpenAPI document, served by the MCP transport. */
export function registerMcpServer(service: ServiceApp): void {
  // The document describes the operation; the route itself is plain, so the transport (not a
  // schema in front of it) answers malformed JSON-RPC with JSON-RPC errors, as MCP clients expect.
  service.app.openAPIRegistry.registerPath(route);
  service.plain("POST", MCP_PATH, (c) => serveMcpMessage(c, service));
}
