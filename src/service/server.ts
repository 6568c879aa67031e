// The agent demo service on a user-only Unix socket (or Windows pipe): NDJSON framing,
// JSON-RPC 2.0, the first two checks of HOST-SPEC section 2 (frame and shape; params against
// the contract), then the host's handler for the rest. Several requests may be in flight on
// one connection; each gets exactly one answer while the connection is open.
import net from 'node:net';
import { RPC_ERRORS, ToolError } from '../contract/errors.js';
import { isDemoMethod } from '../contract/methods.js';
import type { DemoMethod, DemoMethods } from '../contract/types.js';
import { validateParams } from '../contract/validate.js';
import { encodeLine, LineDecoder } from './framing.js';
import { failure, isRpcId, success, type RpcId, type RpcResponse } from './jsonrpc.js';
import { readPeerCredentials, type PeerCredentials } from './peer-credentials.js';
import { prepareSocketPath, removeSocketFile, restrictSocketFile } from './socket-guard.js';

/** What one call knows about the connection it came on. */
export interface CallContext {
  /** Aborted when the client disconnects (a pending consent then ends as denied). */
  readonly disconnected: AbortSignal;
  /**
   * The connecting process as the OS reports it (pid, executable, user), read on first use
   * and kept for the connection; parts it cannot know are null, with the reason.
   */
  requester(): Promise<PeerCredentials>;
}

/** The host side of the service: checks 3 to 6 of HOST-SPEC section 2 and the methods' work. */
export interface DemoHandler {
  handle<M extends DemoMethod>(method: M, params: DemoMethods[M]['params'], context: CallContext): Promise<DemoMethods[M]['result']>;
}

/**
 * What connections may make the host hold (docs/protocol.md, "Limits"). An agent is a local
 * process that may be hostile: each limit bounds memory it could otherwise grow without end.
 */
export interface ConnectionLimits {
  /** Open connections at once; past it a new one gets `service_unavailable` and is closed. */
  maxConnections: number;
  /** Bytes held for unfinished lines across all connections; the connection that goes past it is closed. */
  maxPendingBytesTotal: number;
  /** An unfinished line must end within this long of its first byte, or the connection is closed. */
  partialLineTimeoutMs: number;
  /** Answers a client has not read yet; a client past it is disconnected. */
  maxUnreadAnswerBytes: number;
  /** Characters of the client's input an error message repeats (a method name, say). */
  maxEchoChars: number;
  /** Characters of any error message. */
  maxErrorMessageChars: number;
}

export const CONNECTION_LIMITS: Readonly<ConnectionLimits> = Object.freeze({
  maxConnections: 1024,
  maxPendingBytesTotal: 32 * 1024 * 1024,
  partialLineTimeoutMs: 10_000,
  maxUnreadAnswerBytes: 4 * 1024 * 1024,
  maxEchoChars: 64,
  maxErrorMessageChars: 1000,
});

export interface SocketServerOptions {
  socketPath: string;
  handler: DemoHandler;
  /** Told of faults that are not the client's (never of params, which may hold a token). */
  log?: (message: string) => void;
  /** Tighter or looser limits than CONNECTION_LIMITS (tests). */
  limits?: Partial<ConnectionLimits>;
}

export interface SocketServer {
  readonly socketPath: string;
  readonly connectionCount: number;
  /** Stops listening, closes every connection and removes the socket file. */
  close(): Promise<void>;
}

export async function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  const { socketPath, handler } = options;
  const log = options.log ?? (() => {});
  const limits: ConnectionLimits = { ...CONNECTION_LIMITS, ...options.limits };
  await prepareSocketPath(socketPath);

  const sockets = new Set<net.Socket>();
  const budget: PendingBudget = { held: 0 };
  const server = net.createServer((socket) => {
    if (sockets.size >= limits.maxConnections) {
      refuse(socket, failure(null, RPC_ERRORS.toolError, 'service_unavailable', `the host has ${limits.maxConnections} connections open, its limit; close one and connect again`, true));
      return;
    }
    sockets.add(socket);
    serveConnection(socket, handler, log, limits, budget);
    socket.once('close', () => sockets.delete(socket));
  });
  // Past twice the limit a connection is dropped unanswered: even refusing costs something.
  server.maxConnections = limits.maxConnections * 2;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The folder is 0700 already; the umask keeps the socket itself from ever being wider.
    const previous = process.umask(0o177);
    try {
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(previous);
    }
  });
  server.on('error', (error) => log(`socket server error: ${error.message}`));
  await restrictSocketFile(socketPath);

  return {
    socketPath,
    get connectionCount() {
      return sockets.size;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      await removeSocketFile(socketPath);
    },
  };
}

/**
 * Lines one connection has handled per turn of the event loop before the others get theirs.
 * Small enough that a turn costs well under a millisecond even for the dearest refusals.
 */
export const LINES_PER_TURN = 32;

/** Bytes held for unfinished lines by all of one server's connections. */
interface PendingBudget {
  held: number;
}

/** Sends one last answer and closes; a client that does not read it is cut off soon after. */
function refuse(socket: net.Socket, response: RpcResponse): void {
  socket.end(encodeLine(response));
  setTimeout(() => socket.destroy(), 1000).unref();
  socket.on('error', () => {});
}

/** At most `max` characters of `text`, saying how long it was when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

function serveConnection(socket: net.Socket, handler: DemoHandler, log: (message: string) => void, limits: ConnectionLimits, budget: PendingBudget): void {
  const decoder = new LineDecoder();
  const disconnect = new AbortController();
  let requester: Promise<PeerCredentials> | null = null;
  const context: CallContext = {
    disconnected: disconnect.signal,
    // Read lazily: only demo.request needs it, and the client is waiting for that answer.
    requester: () => (requester ??= readPeerCredentials(socket)),
  };
  let open = true;
  let held = 0;
  let partialTimer: NodeJS.Timeout | undefined;

  const send = (response: RpcResponse) => {
    if (!open || !socket.writable) return;
    // A client that leaves its answers unread would have the host queue them without end.
    if (socket.writableLength > limits.maxUnreadAnswerBytes) {
      log(`closed a connection that left over ${limits.maxUnreadAnswerBytes} bytes of answers unread`);
      open = false;
      socket.destroy();
      return;
    }
    if ('error' in response) response.error.message = clip(response.error.message, limits.maxErrorMessageChars);
    socket.write(encodeLine(response));
  };
  const closeWith = (response: RpcResponse) => {
    if (!open) return;
    open = false;
    release();
    if (socket.writable && socket.writableLength <= limits.maxUnreadAnswerBytes) refuse(socket, response);
    else socket.destroy();
  };
  const release = () => {
    budget.held -= held;
    held = 0;
    clearTimeout(partialTimer);
    partialTimer = undefined;
    clearImmediate(turn);
    turn = undefined;
    waiting = [];
    next = 0;
  };

  // Whole lines not handled yet. A connection gets LINES_PER_TURN of them per turn of the
  // event loop and is paused while more wait, so that a flood on one connection cannot hold
  // up another's calls (the agent's next act after a kill, say) for longer than one turn.
  let waiting: string[] = [];
  let next = 0;
  let turn: NodeJS.Immediate | undefined;
  const handleWaiting = () => {
    turn = undefined;
    const last = Math.min(waiting.length, next + LINES_PER_TURN);
    for (; next < last && open; next++) {
      handleLine(waiting[next]!, handler, context, log, limits.maxEchoChars).then(
        (response) => response && send(response),
        (error: unknown) => log(`unexpected failure answering a request: ${String(error)}`),
      );
    }
    if (!open) return;
    if (next < waiting.length) {
      turn = setImmediate(handleWaiting);
      return;
    }
    waiting = [];
    next = 0;
    socket.resume();
  };

  socket.on('data', (chunk: Buffer) => {
    if (!open) return; // closing: what still comes is dropped, not held
    const events = decoder.push(chunk);
    budget.held += decoder.heldBytes - held;
    held = decoder.heldBytes;
    for (const event of events) {
      if (event.kind === 'oversize') {
        closeWith(failure(null, RPC_ERRORS.invalidRequest, 'invalid_arguments', `line of ${event.bytes}+ bytes is over the 1 MiB limit; closing the connection`));
        return;
      }
      waiting.push(event.line);
    }
    if (turn === undefined && next < waiting.length) {
      handleWaiting();
      if (turn !== undefined) socket.pause();
    }
    if (budget.held > limits.maxPendingBytesTotal) {
      closeWith(failure(null, RPC_ERRORS.toolError, 'service_unavailable', `the host holds over ${limits.maxPendingBytesTotal} bytes of unfinished lines across its connections; closing this one`, true));
      return;
    }
    if (decoder.pendingBytes === 0) {
      clearTimeout(partialTimer);
      partialTimer = undefined;
    } else {
      partialTimer ??= setTimeout(() => {
        closeWith(failure(null, RPC_ERRORS.invalidRequest, 'invalid_arguments', `a line was not finished within ${limits.partialLineTimeoutMs} ms of its first byte; closing the connection`));
      }, limits.partialLineTimeoutMs);
    }
  });
  socket.on('error', () => {
    // A client that resets its connection is not the host's problem; 'close' follows.
  });
  socket.on('close', () => {
    open = false;
    release();
    disconnect.abort();
  });
}

/** Answers one line; resolves undefined for a notification (no answer is sent). */
export async function handleLine(
  line: string,
  handler: DemoHandler,
  context: CallContext,
  log: (message: string) => void = () => {},
  maxEchoChars: number = CONNECTION_LIMITS.maxEchoChars,
): Promise<RpcResponse | undefined> {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return failure(null, RPC_ERRORS.parseError, 'invalid_arguments', `line is not JSON: ${clip((error as Error).message, maxEchoChars * 2)}`);
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    return failure(null, RPC_ERRORS.invalidRequest, 'invalid_arguments', 'message is not a JSON-RPC 2.0 request object (batches are not supported)');
  }
  const request = message as Record<string, unknown>;
  const hasId = Object.hasOwn(request, 'id');
  const id: RpcId | null = isRpcId(request['id']) ? request['id'] : null;
  if (request['jsonrpc'] !== '2.0') {
    return failure(id, RPC_ERRORS.invalidRequest, 'invalid_arguments', 'message must have "jsonrpc": "2.0"');
  }
  if (hasId && id === null) {
    return failure(null, RPC_ERRORS.invalidRequest, 'invalid_arguments', '"id" must be a number or a string');
  }
  if (typeof request['method'] !== 'string') {
    return failure(id, RPC_ERRORS.invalidRequest, 'invalid_arguments', 'message must have a string "method"');
  }
  // A notification expects no answer, and every demo method's result is something the caller
  // needs (a token, a receipt), so a notification is dropped without effect.
  if (!hasId) return undefined;
  const method = request['method'];
  if (!isDemoMethod(method)) {
    return failure(id, RPC_ERRORS.methodNotFound, 'unknown_method', `unknown method ${clip(JSON.stringify(method), maxEchoChars)}`);
  }
  const rawParams = Object.hasOwn(request, 'params') ? request['params'] : {};
  let params: DemoMethods[DemoMethod]['params'];
  try {
    params = validateParams(method, rawParams);
  } catch (error) {
    const message = error instanceof ToolError ? error.message : String(error);
    return failure(id, RPC_ERRORS.invalidParams, 'invalid_arguments', message);
  }
  try {
    const result = await handler.handle(method, params, context);
    return success(id as RpcId, result);
  } catch (error) {
    if (error instanceof ToolError) {
      const rpcCode = error.code === 'invalid_arguments' ? RPC_ERRORS.invalidParams : RPC_ERRORS.toolError;
      return failure(id, rpcCode, error.code, error.message, error.retryable);
    }
    log(`${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return failure(id, RPC_ERRORS.toolError, 'service_unavailable', `the host failed to handle ${method}: ${(error as Error)?.message ?? String(error)}`, true);
  }
}
