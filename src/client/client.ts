// The TypeScript client of the demo service (HOST-SPEC section 7): NDJSON JSON-RPC over the
// user-only socket, every answer judged by the contract before the caller sees it. The client
// stores nothing: the token is an argument on each call and is never logged or written.
import net from 'node:net';
import { ToolError } from '../contract/errors.js';
import {
  BATCH_MAX_STEPS,
  BATCH_MIN_STEPS,
  CALL_TIMEOUT_MS,
  DEMO_METHODS,
  MAX_LINE_BYTES,
  REQUEST_TIMEOUT_MS,
  isDemoMethod,
} from '../contract/methods.js';
import type { DemoMethod, DemoMethods } from '../contract/types.js';
import { resultProblem, validateParams } from '../contract/validate.js';
import { LineDecoder, encodeLine } from '../service/framing.js';
import { resolveSocketPath } from '../service/socket-path.js';

/** Per-call options. Without `timeoutMs`, the contract's timeout for the method applies. */
export interface CallOptions {
  timeoutMs?: number;
  /** Aborting rejects the call with the signal's reason. The host may still run it. */
  signal?: AbortSignal;
}

/** The contract's timeout for a method: 600 s for demo.request (it waits for a person), else 30 s. */
export function defaultTimeoutMs(method: DemoMethod): number {
  return method === 'demo.request' ? REQUEST_TIMEOUT_MS : CALL_TIMEOUT_MS;
}

// setTimeout fires at once for delays beyond a signed 32-bit number of milliseconds.
const MAX_TIMER_MS = 2 ** 31 - 1;
// Ids of calls that stopped waiting (timeout, abort) are remembered so that their late
// answers are dropped quietly instead of counting as unasked messages; bounded so a host that
// never answers cannot grow it without end.
const MAX_ABANDONED_IDS = 1024;
// How long close() waits for the host to close its side before it drops the socket.
const CLOSE_GRACE_MS = 1000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function preview(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * Calls that change the target (act, batch) may have run when their answer is lost. Repeating
 * them blindly could type twice, so such a loss is not retryable; the rest are safe to repeat.
 */
function safeToRepeat(method: DemoMethod): boolean {
  return method !== 'demo.act' && method !== 'demo.batch';
}

function answerLost(method: DemoMethod, why: string): ToolError {
  const consequence = safeToRepeat(method) ? '' : '; it may have run: take a snapshot before repeating it';
  return new ToolError('service_unavailable', `${why}${consequence}`, safeToRepeat(method));
}

function malformed(message: string): ToolError {
  return new ToolError('malformed_response', message, false);
}

/**
 * Checks params before anything is sent, or before connecting: the method is known, a batch
 * has 1 to 20 steps, and the params match the contract (schema and its prose rules). Returns
 * the params typed; throws `invalid_arguments` naming the first problem.
 */
export function checkParams<M extends DemoMethod>(method: M, params: unknown): DemoMethods[M]['params'] {
  if (!isDemoMethod(method)) {
    throw new ToolError('invalid_arguments', `unknown method ${String(method)}: expected one of ${DEMO_METHODS.join(', ')}`);
  }
  if (method === 'demo.batch' && isObject(params) && Array.isArray(params['steps'])) {
    const count = params['steps'].length;
    if (count < BATCH_MIN_STEPS || count > BATCH_MAX_STEPS) {
      throw new ToolError('invalid_arguments', `demo.batch takes ${BATCH_MIN_STEPS} to ${BATCH_MAX_STEPS} steps, got ${count}`);
    }
  }
  return validateParams(method, params);
}

/**
 * Judges a successful answer's result. A snapshot whose `capture_state` is anything but
 * `"safe"` (missing included) becomes `capture_unsafe` and its elements are dropped (the
 * contract's fail-closed rule, checked before the schema so it wins over `malformed_response`);
 * any other shape the contract does not allow becomes `malformed_response`.
 */
export function checkResult<M extends DemoMethod>(method: M, result: unknown): DemoMethods[M]['result'] {
  if (method === 'demo.snapshot' && isObject(result) && result['capture_state'] !== 'safe') {
    const state = result['capture_state'] === undefined ? 'no capture_state' : `capture_state ${JSON.stringify(result['capture_state'])}`;
    throw new ToolError('capture_unsafe', `the snapshot reports ${state}, not "safe": refused, and no element is returned`, false);
  }
  const problem = resultProblem(method, result);
  if (problem !== undefined) throw malformed(`${method} answered a result the contract does not allow: ${problem}`);
  return result as DemoMethods[M]['result'];
}

/**
 * A JSON-RPC error object as a ToolError: `data.code` is the code (codes unknown to the
 * contract pass through unchanged), `data.retryable` the host's verdict. An error without a
 * `data.code` string is `malformed_response`.
 */
export function toolErrorFromRpcError(method: string, error: unknown): ToolError {
  if (!isObject(error)) return malformed(`${method} answered an error that is not an object`);
  const hostMessage = typeof error['message'] === 'string' && error['message'] !== '' ? error['message'] : undefined;
  const data = error['data'];
  if (!isObject(data) || typeof data['code'] !== 'string' || data['code'] === '') {
    return malformed(`${method} answered an error without a data.code string${hostMessage ? ` (its message: ${hostMessage})` : ''}`);
  }
  const code = data['code'];
  const retryable = typeof data['retryable'] === 'boolean' ? data['retryable'] : undefined;
  return new ToolError(code, hostMessage ?? `${method} failed: ${code}`, retryable);
}

/** Why a connect failed, as the contract's `service_unavailable` (nothing was sent, so retryable). */
function connectError(socketPath: string, error: NodeJS.ErrnoException): ToolError {
  const nobodyThere = ['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR'].includes(error.code ?? '');
  const message = nobodyThere
    ? `no CutRight host is listening at ${socketPath}: start it with \`cutright\``
    : `cannot connect to the CutRight host at ${socketPath}: ${error.message}`;
  return new ToolError('service_unavailable', message, true);
}

interface PendingCall {
  method: DemoMethod;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** Clears the timer and the abort listener. */
  dispose(): void;
}

/**
 * One connection to the demo service. Several calls may be in flight at once; answers are
 * matched by id in whatever order they come. A line that is not JSON, an unasked message, or
 * a line over the 1 MiB limit means the stream can no longer be trusted: every call in flight
 * fails with `malformed_response` and the connection is closed.
 */
export class DemoClient {
  private readonly decoder = new LineDecoder();
  private readonly pending = new Map<number, PendingCall>();
  private readonly abandoned = new Set<number>();
  private nextId = 1;
  /** Set once the connection is closing or closed; later calls fail with it. */
  private closedReason: string | undefined;
  private readonly closedPromise: Promise<void>;

  private constructor(
    private readonly socket: net.Socket,
    readonly socketPath: string,
  ) {
    let socketError: Error | undefined;
    this.closedPromise = new Promise((resolve) => {
      socket.once('close', () => {
        this.closedReason ??= socketError
          ? `the connection to the CutRight host at ${socketPath} failed: ${socketError.message}`
          : `the CutRight host at ${socketPath} closed the connection`;
        this.failAll((method) => answerLost(method, `${this.closedReason} before it answered ${method}`));
        resolve();
      });
    });
    socket.on('error', (error) => {
      socketError = error; // 'close' follows and fails the calls in flight
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  /**
   * Connects to the service at `socketPath` (default: `--socket`'s rules without the flag,
   * see resolveSocketPath). No listener there is `service_unavailable`.
   */
  static connect(socketPath: string = resolveSocketPath()): Promise<DemoClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      const onError = (error: NodeJS.ErrnoException): void => {
        socket.destroy();
        reject(connectError(socketPath, error));
      };
      socket.once('error', onError);
      socket.once('connect', () => {
        socket.off('error', onError);
        resolve(new DemoClient(socket, socketPath));
      });
    });
  }

  /** True once the connection is closing or closed; every later call fails. */
  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /**
   * Calls one method. Params are checked before sending (`invalid_arguments`); the answer is
   * checked against the contract (see checkResult, toolErrorFromRpcError). No answer within the
   * timeout, or the connection closing first, is `service_unavailable`.
   */
  async call<M extends DemoMethod>(
    method: M,
    params: DemoMethods[M]['params'],
    options: CallOptions = {},
  ): Promise<DemoMethods[M]['result']> {
    checkParams(method, params);
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs(method);
    if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
    const { signal } = options;
    signal?.throwIfAborted();
    if (this.closedReason !== undefined) {
      throw new ToolError('service_unavailable', `${this.closedReason}: connect again`, true);
    }

    const id = this.nextId++;
    const line = encodeLine({ jsonrpc: '2.0', id, method, params });
    const lineBytes = Buffer.byteLength(line) - 1;
    if (lineBytes > MAX_LINE_BYTES) {
      throw new ToolError('invalid_arguments', `the ${method} request is ${lineBytes} bytes, over the ${MAX_LINE_BYTES}-byte line limit`);
    }

    const result = await new Promise<unknown>((resolve, reject) => {
      const stopWaiting = (error: unknown): void => {
        if (!this.pending.delete(id)) return;
        this.abandon(id);
        call.dispose();
        reject(error);
      };
      const timer = setTimeout(
        () => stopWaiting(answerLost(method, `no answer to ${method} from the CutRight host at ${this.socketPath} within ${formatDuration(timeoutMs)}`)),
        Math.min(timeoutMs, MAX_TIMER_MS),
      );
      const onAbort = (): void => stopWaiting(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const call: PendingCall = {
        method,
        resolve,
        reject,
        dispose: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      this.pending.set(id, call);
      this.socket.write(line);
    });
    return result as DemoMethods[M]['result'];
  }

  /**
   * Closes the connection. Calls still in flight fail with `service_unavailable`. Resolves
   * once the socket is closed; calling it again is harmless.
   */
  close(): Promise<void> {
    if (this.closedReason === undefined) {
      this.closedReason = `the connection to the CutRight host at ${this.socketPath} was closed by this client`;
      this.failAll((method) => answerLost(method, `${this.closedReason} before an answer to ${method} came`));
      this.socket.end();
      const fallback = setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS);
      fallback.unref();
      void this.closedPromise.then(() => clearTimeout(fallback));
    }
    return this.closedPromise;
  }

  private onData(chunk: Buffer): void {
    for (const event of this.decoder.push(chunk)) {
      if (this.closedReason !== undefined) return;
      if (event.kind === 'oversize') {
        this.protocolFault(`the host sent a line over the ${MAX_LINE_BYTES}-byte limit`);
        return;
      }
      this.onLine(event.line);
    }
  }

  private onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.protocolFault(`the host sent a line that is not JSON: ${preview(line)}`);
      return;
    }
    if (!isObject(message)) {
      this.protocolFault(`the host sent a line that is not a JSON-RPC object: ${preview(line)}`);
      return;
    }
    const id = message['id'];
    if (id === null && Object.hasOwn(message, 'error')) {
      this.onUnattributedError(message['error']);
      return;
    }
    const call = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (call === undefined) {
      if (typeof id === 'number' && this.abandoned.delete(id)) return; // a late answer to a call that stopped waiting
      this.protocolFault(`the host sent a message that answers no call in flight (id ${JSON.stringify(id) ?? 'missing'})`);
      return;
    }
    this.pending.delete(id as number);
    call.dispose();
    try {
      call.resolve(this.settle(call.method, message));
    } catch (error) {
      call.reject(error);
    }
  }

  /** One response to one call: its result, checked, or its error as a ToolError (thrown). */
  private settle(method: DemoMethod, message: Record<string, unknown>): unknown {
    if (message['jsonrpc'] !== '2.0') {
      throw malformed(`${method} answered a message that is not JSON-RPC 2.0 ("jsonrpc" is ${JSON.stringify(message['jsonrpc']) ?? 'missing'})`);
    }
    const hasResult = Object.hasOwn(message, 'result');
    const hasError = Object.hasOwn(message, 'error');
    if (hasResult === hasError) {
      throw malformed(`${method} answered a message with ${hasResult ? 'both' : 'neither'} "result" and "error"`);
    }
    if (hasError) throw toolErrorFromRpcError(method, message['error']);
    return checkResult(method, message['result']);
  }

  /**
   * An error with id null: the host could not read one of our requests and cannot say which.
   * The client only sends well-formed lines under the limit, so this is rare; every call in
   * flight fails with the host's error rather than waiting for an answer that will not come.
   */
  private onUnattributedError(error: unknown): void {
    const toolError = toolErrorFromRpcError('the host', error);
    if (toolError.code === 'malformed_response') {
      this.protocolFault(toolError.message);
      return;
    }
    this.failAll(() => new ToolError(toolError.code, `the host could not read a request: ${toolError.message}`, toolError.retryable));
  }

  /** The stream cannot be trusted any more: fail every call in flight and close. */
  private protocolFault(reason: string): void {
    this.closedReason = `the connection to the CutRight host at ${this.socketPath} was closed because ${reason}`;
    this.failAll((method) => malformed(`no trustworthy answer to ${method}: ${reason}`));
    this.socket.destroy();
  }

  private failAll(errorFor: (method: DemoMethod) => unknown): void {
    for (const [id, call] of this.pending) {
      this.pending.delete(id);
      this.abandon(id);
      call.dispose();
      call.reject(errorFor(call.method));
    }
  }

  private abandon(id: number): void {
    this.abandoned.add(id);
    if (this.abandoned.size > MAX_ABANDONED_IDS) {
      const oldest = this.abandoned.values().next().value;
      if (oldest !== undefined) this.abandoned.delete(oldest);
    }
  }
}

/** Options of callOnce: a call's options plus where to connect. */
export interface CallOnceOptions extends CallOptions {
  /** Default: resolveSocketPath() (`$CUTRIGHT_SOCKET`, else the platform default). */
  socketPath?: string;
}

/**
 * Connects, makes one call, closes. Params are checked before connecting, so a batch of 0 or
 * 21 steps never reaches the host.
 */
export async function callOnce<M extends DemoMethod>(
  method: M,
  params: DemoMethods[M]['params'],
  options: CallOnceOptions = {},
): Promise<DemoMethods[M]['result']> {
  checkParams(method, params);
  options.signal?.throwIfAborted();
  const client = await DemoClient.connect(options.socketPath);
  try {
    return await client.call(method, params, { timeoutMs: options.timeoutMs, signal: options.signal });
  } finally {
    await client.close();
  }
}
