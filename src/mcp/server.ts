// cutright-mcp's MCP server: the six demo tools, each call one connection to the host's
// socket through the demo client (src/client/), so a host that stops and comes back is met
// afresh by the next call, and a cancelled demo_request closes its own connection, which the
// host reads as the agent leaving and withdraws the consent dialog.
//
// The SDK's low-level Server is used rather than McpServer: McpServer takes zod schemas, and
// the tools' schemas here are the contract's JSON Schemas as they are.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../contract/errors.js';
import { REQUEST_TIMEOUT_MS } from '../contract/methods.js';
import type { DemoMethod, DemoMethods } from '../contract/types.js';
import { callOnce } from '../client/client.js';
import { renderError, renderResult } from './render.js';
import { DEMO_TOOLS, SERVER_INSTRUCTIONS, listedTools, toolNamed } from './tools.js';

/** How often demo_request reports that it is still waiting: well inside a 15 s client reset window. */
export const PROGRESS_INTERVAL_MS = 10_000;

export interface DemoMcpServerOptions {
  /** The host's socket (resolved by the caller: --socket, CUTRIGHT_SOCKET, or the default). */
  socketPath: string;
  /** The server's version as it introduces itself. */
  version: string;
  /** Between two progress notifications of a waiting demo_request (default PROGRESS_INTERVAL_MS). */
  progressIntervalMs?: number;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Builds the MCP server; connect it to a transport (stdio in cutright-mcp). */
export function createDemoMcpServer(options: DemoMcpServerOptions): Server {
  const server = new Server({ name: 'cutright-mcp', title: 'CutRight', version: options.version }, { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = toolNamed(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(request.params.name)}: the tools are ${DEMO_TOOLS.map((t) => t.name).join(', ')}`);
    }
    const params = request.params.arguments ?? {};
    const stopProgress = tool.method === 'demo.request' ? reportWaiting(extra, options.progressIntervalMs ?? PROGRESS_INTERVAL_MS) : () => {};
    try {
      return await callTool(tool.method, params, options.socketPath, extra.signal);
    } finally {
      stopProgress();
    }
  });
  return server;
}

/**
 * One call to the host: the result as structuredContent with its text rendering, or a tool
 * error as an `isError` result. Params are checked by the client before it connects.
 */
async function callTool(method: DemoMethod, params: unknown, socketPath: string, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const result = await callOnce(method, params as DemoMethods[typeof method]['params'], { socketPath, signal });
    return {
      content: [{ type: 'text', text: renderResult(method, result) }],
      structuredContent: result as unknown as Record<string, unknown>,
    };
  } catch (error) {
    // A cancelled call is never answered (the SDK drops the response); this only ends the handler.
    if (signal.aborted) return errorResult(new ToolError('service_unavailable', `the ${method} call was cancelled by the client`, true));
    if (error instanceof ToolError) return errorResult(error);
    throw error;
  }
}

/** A tool error as an `isError` result; a host that is not there is told as something that passes. */
function errorResult(error: ToolError): CallToolResult {
  const told =
    error.code === 'service_unavailable' && error.retryable
      ? new ToolError(error.code, `${error.message} (cutright-mcp keeps running: call again once the CutRight host is up)`, true)
      : error;
  return { isError: true, content: [{ type: 'text', text: renderError(told) }] };
}

/**
 * While demo_request waits for the person, sends MCP progress notifications (one at once, then
 * one every interval) when the client asked for them with a progress token, so clients that
 * reset their timeout on progress keep waiting. Returns the function that stops them.
 */
function reportWaiting(extra: Extra, intervalMs: number): () => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  const started = Date.now();
  let last = -1;
  const report = (): void => {
    const seconds = (Date.now() - started) / 1000;
    // Progress must increase with every notification, even when the clock has not moved.
    const progress = Math.max(seconds, last + 0.001);
    last = progress;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          total: REQUEST_TIMEOUT_MS / 1000,
          message: `waiting for the person to answer the consent dialog in CutRight (${Math.round(seconds)} s of at most ${REQUEST_TIMEOUT_MS / 1000} s)`,
        },
      })
      .catch(() => {}); // the client went away: the call's own cancellation ends the wait
  };
  report();
  const timer = setInterval(report, intervalMs);
  return () => clearInterval(timer);
}
