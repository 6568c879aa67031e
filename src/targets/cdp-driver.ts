// The target driver over one CDP connection (the same code in both shells). Snapshot and
// act each cost one `Runtime.callFunctionOn` into an isolated world where page-agent.ts runs;
// input goes through raw `Input.*` events, so the page sees a real click or key press.
import { ToolError } from '../contract/errors.js';
import type { ElementOp } from '../contract/types.js';
import { decideCaptureState, normalizeOrigin, type CaptureDecision } from '../policy/capture-safe.js';
import { SECURE_AUTOCOMPLETE_TOKENS } from '../policy/secure-fields.js';
import { keyEventSequence, parseKey, type ParsedKey } from './keys.js';
import {
  AGENT_GLOBAL,
  OP_CLICK,
  OP_PRESS,
  OP_TYPE,
  PAGE_AGENT_SOURCE,
  type PageCapture,
  type PagePrepare,
  type PageSnapshot,
} from './page-agent.js';
import type {
  ActInput,
  ActOutcome,
  CdpTransport,
  Dispose,
  DriverElement,
  DriverSnapshot,
  TargetCloseReason,
  TargetDriver,
} from './types.js';

export interface CdpDriverOptions {
  /** Origins the session may capture (`scheme://host[:port]`; a URL is cut to its origin). At least one. */
  allowedOrigins: string[];
  /** Snapshot cap: at most this many elements are listed, the rest cut with `truncated`. Default 2000. */
  maxElements?: number;
  /** Platform whose conventions `cmd` and editing keys follow. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** How long the page has to answer the capture check (and act's resolve). Default 2000 ms. */
  captureTimeoutMs?: number;
  /** How long the page has to answer a snapshot walk. Default 10000 ms. */
  snapshotTimeoutMs?: number;
  /**
   * Closes the target when the driver is closed. Default: CDP `Page.close` on the transport.
   * The launcher's `OpenedTarget.close` fits here.
   */
  closeTarget?: () => Promise<void>;
}

export const DEFAULT_MAX_ELEMENTS = 2000;
const WORLD_NAME = 'cutright';

/** The page did not answer in time. */
class PageTimeout extends Error {
  override readonly name = 'PageTimeout';
}

interface World {
  contextId: number;
}

interface CallFunctionResult {
  result?: { value?: unknown; description?: string };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

const OP_BITS: Record<ElementOp, number> = { click: OP_CLICK, type: OP_TYPE, press: OP_PRESS };

function opsFromMask(mask: number): ElementOp[] {
  const ops: ElementOp[] = [];
  if (mask & OP_CLICK) ops.push('click');
  if (mask & OP_TYPE) ops.push('type');
  if (mask & OP_PRESS) ops.push('press');
  return ops;
}

/** Errors after which the isolated world must be created again (the document was replaced). */
function isContextLost(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Cannot find context|Execution context was destroyed|Cannot find default execution context|Inspected target navigated|Frame with the given id was not found|No frame for given id|AGENT_MISSING/i.test(
    message,
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageTimeout(`${what} did not answer within ${ms} ms`)), ms);
  });
  // A late answer or failure of the abandoned call must not surface as an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describeTarget(expect: { role: string; label: string }): string {
  return `${expect.role} ${JSON.stringify(expect.label)}`;
}

/** Creates a driver for the page behind `transport`. Throws an Error naming a bad option. */
export async function createCdpDriver(transport: CdpTransport, options: CdpDriverOptions): Promise<TargetDriver> {
  if (!options || !Array.isArray(options.allowedOrigins) || options.allowedOrigins.length === 0) {
    throw new Error('createCdpDriver: allowedOrigins must list at least one origin');
  }
  const allowedOrigins = [...new Set(options.allowedOrigins.map(normalizeOrigin))];
  const maxElements = options.maxElements ?? DEFAULT_MAX_ELEMENTS;
  if (!Number.isInteger(maxElements) || maxElements < 1) {
    throw new Error(`createCdpDriver: maxElements must be a positive integer, got ${String(maxElements)}`);
  }
  const platform = options.platform ?? process.platform;
  const captureTimeoutMs = options.captureTimeoutMs ?? 2000;
  const snapshotTimeoutMs = options.snapshotTimeoutMs ?? 10_000;

  let closedReason: TargetCloseReason | undefined;
  let closing: Promise<void> | undefined;
  const closed = transport.closed.then((reason) => {
    closedReason ??= reason;
    return reason;
  });

  let world: Promise<World> | undefined;
  const disposers: Dispose[] = [];

  // A new document in the main frame has a new isolated world: drop the old one.
  disposers.push(
    transport.on('Page.frameNavigated', (params) => {
      const frame = (params as { frame?: { parentId?: string } } | undefined)?.frame;
      if (frame && !frame.parentId) world = undefined;
    }),
  );
  await transport.send('Page.enable');

  async function createWorld(): Promise<World> {
    const tree = await transport.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree');
    const { executionContextId } = await transport.send<{ executionContextId: number }>('Page.createIsolatedWorld', {
      frameId: tree.frameTree.frame.id,
      worldName: WORLD_NAME,
      // The world needs no more reach than the page's own scripts have.
      grantUniveralAccess: false,
    });
    const installed = await transport.send<CallFunctionResult>('Runtime.callFunctionOn', {
      functionDeclaration: PAGE_AGENT_SOURCE,
      executionContextId,
      arguments: [{ value: SECURE_AUTOCOMPLETE_TOKENS }],
      returnByValue: true,
      silent: true,
    });
    if (installed.exceptionDetails) throw new Error(`installing the page agent failed: ${exceptionText(installed)}`);
    return { contextId: executionContextId };
  }

  function ensureWorld(): Promise<World> {
    if (!world) {
      const created = createWorld();
      world = created;
      created.catch(() => {
        if (world === created) world = undefined;
      });
    }
    return world;
  }

  function exceptionText(result: CallFunctionResult): string {
    return result.exceptionDetails?.exception?.description ?? result.exceptionDetails?.text ?? 'unknown exception';
  }

  async function callOnce<T>(method: string, args: unknown[]): Promise<T> {
    const worldPromise = ensureWorld();
    try {
      const current = await worldPromise;
      const result = await transport.send<CallFunctionResult>('Runtime.callFunctionOn', {
        functionDeclaration: `function () { var a = globalThis.${AGENT_GLOBAL}; if (!a) throw new Error('AGENT_MISSING'); return a.${method}.apply(a, arguments); }`,
        executionContextId: current.contextId,
        arguments: args.map((value) => ({ value })),
        returnByValue: true,
        silent: true,
      });
      if (result.exceptionDetails) throw new Error(`page agent ${method} failed: ${exceptionText(result)}`);
      return result.result?.value as T;
    } catch (error) {
      // Only drop the world this call used: a concurrent call may have made a new one already.
      if (isContextLost(error) && world === worldPromise) world = undefined;
      throw error;
    }
  }

  /** Calls the page agent, re-creating the isolated world once if the document was replaced. */
  async function callAgent<T>(method: string, args: unknown[], timeoutMs: number): Promise<T> {
    const attempt = async (): Promise<T> => {
      try {
        return await callOnce<T>(method, args);
      } catch (error) {
        if (!isContextLost(error)) throw error;
        return callOnce<T>(method, args);
      }
    };
    return withTimeout(attempt(), timeoutMs, 'the page');
  }

  function assertOpen(): void {
    if (closing) throw new Error('the target driver is closed');
    if (closedReason) throw new Error(`the target is gone (${closedReason})`);
  }

  function decide(capture: PageCapture): CaptureDecision {
    return decideCaptureState({
      attached: closedReason === undefined && closing === undefined,
      answered: true,
      origin: capture.origin,
      declared: capture.declared,
      allowedOrigins,
    });
  }

  function unanswered(error: unknown): CaptureDecision {
    if (closedReason !== undefined || closing !== undefined) {
      return decideCaptureState({ attached: false, answered: false, allowedOrigins });
    }
    const failure = error instanceof Error ? error.message : String(error);
    return decideCaptureState({ attached: true, answered: false, allowedOrigins, failure });
  }

  async function captureState(): Promise<CaptureDecision> {
    if (closedReason !== undefined || closing !== undefined) return unanswered(undefined);
    try {
      const capture = await callAgent<PageCapture>('capture', [], captureTimeoutMs);
      return decide(capture);
    } catch (error) {
      return unanswered(error);
    }
  }

  async function snapshot(): Promise<DriverSnapshot> {
    if (closedReason !== undefined || closing !== undefined) {
      const decision = unanswered(undefined);
      return { captureState: decision.state, captureReason: decision.reason, elements: [], truncated: false };
    }
    let page: PageSnapshot;
    try {
      page = await callAgent<PageSnapshot>('snapshot', [allowedOrigins, maxElements], snapshotTimeoutMs);
    } catch (error) {
      const decision = unanswered(error);
      return { captureState: decision.state, captureReason: decision.reason, elements: [], truncated: false };
    }
    const decision = decide(page.capture);
    if (decision.state !== 'safe' || !page.elements) {
      // Fail closed: whatever the page returned, nothing is listed unless the rule says safe.
      const reason = decision.reason ?? 'the page agent listed nothing for a page the rule calls safe';
      return { captureState: decision.state === 'safe' ? 'unknown' : decision.state, captureReason: reason, elements: [], truncated: false };
    }
    const elements: DriverElement[] = page.elements.map(([nodeKey, role, label, mask, secure]) => ({
      nodeKey,
      role,
      label,
      ops: opsFromMask(mask),
      secure: secure === 1,
    }));
    return { captureState: 'safe', elements, truncated: page.truncated };
  }

  function refusal(prepared: PagePrepare, input: ActInput, expect: { role: string; label: string }): Error | undefined {
    const target = describeTarget(expect);
    switch (prepared.status) {
      case 'ok':
        return undefined;
      case 'unsafe': {
        const decision = decide(prepared.capture);
        return new ToolError('capture_unsafe', `the target is not capture-safe: ${decision.reason ?? decision.state}`);
      }
      case 'gone':
        return new ToolError('invalid_arguments', `ref for ${target} is gone or changed; take a new snapshot`);
      case 'changed':
        return new ToolError(
          'invalid_arguments',
          `ref for ${target} is gone or changed (it is now ${prepared.role ?? 'not a control'} ${JSON.stringify(prepared.label ?? '')}); take a new snapshot`,
        );
      case 'secure':
        return new ToolError('target_blocked', `${target} is a secure field; CutRight never acts on secure fields`);
      case 'hidden':
        return new ToolError('invalid_arguments', `${target} is no longer visible; take a new snapshot`);
      case 'disabled':
        return new ToolError('invalid_arguments', `${target} is disabled`);
      case 'op':
        return new ToolError(
          'invalid_arguments',
          `${target} does not take ${input.op} (it takes ${opsFromMask(prepared.ops ?? 0).join(', ') || 'nothing'})`,
        );
      case 'unfocusable':
        return new ToolError('invalid_arguments', `${target} did not take focus, so the key was not pressed`);
      case 'offscreen':
        return new ToolError('invalid_arguments', `${target} cannot be scrolled into view`);
      case 'covered':
        return new ToolError('invalid_arguments', `${target} is covered by ${prepared.coveredBy ?? 'another element'}`);
      default:
        return new Error(`unexpected answer from the page agent: ${String(prepared.status)}`);
    }
  }

  async function click(x: number, y: number): Promise<void> {
    // Sent back to back: CDP handles one session's commands in order, so waiting between them
    // would only add round trips.
    const base = { x, y, button: 'left', clickCount: 1 };
    await Promise.all([
      transport.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none' }),
      transport.send('Input.dispatchMouseEvent', { ...base, type: 'mousePressed', buttons: 1 }),
      transport.send('Input.dispatchMouseEvent', { ...base, type: 'mouseReleased', buttons: 0 }),
    ]);
  }

  async function act(input: ActInput, expect: { role: string; label: string }, signal?: AbortSignal): Promise<ActOutcome> {
    signal?.throwIfAborted();
    assertOpen();
    if (!input || typeof input.nodeKey !== 'string') throw new ToolError('invalid_arguments', 'act needs a nodeKey');
    if (!Object.hasOwn(OP_BITS, input.op)) throw new ToolError('invalid_arguments', `unknown op ${JSON.stringify(input.op)}`);
    let key: ParsedKey | undefined;
    if (input.op === 'type' && typeof input.text !== 'string') throw new ToolError('invalid_arguments', 'type needs text');
    if (input.op === 'press') {
      if (typeof input.key !== 'string') throw new ToolError('invalid_arguments', 'press needs key');
      key = parseKey(input.key, platform);
    }

    let prepared: PagePrepare;
    try {
      prepared = await callAgent<PagePrepare>(
        'prepare',
        [allowedOrigins, input.nodeKey, expect.role, expect.label, input.op],
        captureTimeoutMs,
      );
    } catch (error) {
      if (error instanceof PageTimeout) {
        throw new ToolError('capture_unsafe', `the target is not capture-safe: the page did not answer within ${captureTimeoutMs} ms`);
      }
      throw error;
    }
    const refused = refusal(prepared, input, expect);
    if (refused) throw refused;

    signal?.throwIfAborted();
    const outcome: ActOutcome = { role: expect.role, label: expect.label };
    if (input.op === 'press' && key) {
      await Promise.all(keyEventSequence(key, platform).map((event) => transport.send('Input.dispatchKeyEvent', event)));
      return outcome;
    }
    await click(prepared.x as number, prepared.y as number);
    if (input.op === 'click') return outcome;

    // type: the click focused the field; type at its end, never into whatever else has focus.
    const focused = await callAgent<boolean>('caretToEnd', [input.nodeKey], captureTimeoutMs);
    if (!focused) throw new ToolError('invalid_arguments', `${describeTarget(expect)} did not take focus when clicked; nothing was typed`);
    signal?.throwIfAborted();
    if (input.text) await transport.send('Input.insertText', { text: input.text });
    return outcome;
  }

  async function screenshot(): Promise<{ mime: string; data: Buffer }> {
    assertOpen();
    // Fail closed: no picture of a page that is not capture-safe (for example right after
    // "Go private"), even when the caller forgot to check.
    const state = await captureState();
    if (state.state !== 'safe') {
      throw new ToolError('capture_unsafe', `the target is not capture-safe: ${state.reason ?? state.state}`);
    }
    // JPEG at quality 70: one picture is kept per step in the bundle, and a JPEG of a page is a
    // fraction of the PNG's size and cheaper to encode, with text still legible.
    const { data } = await transport.send<{ data: string }>('Page.captureScreenshot', {
      format: 'jpeg',
      quality: 70,
      optimizeForSpeed: true,
    });
    return { mime: 'image/jpeg', data: Buffer.from(data, 'base64') };
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      for (const dispose of disposers.splice(0)) dispose();
      world = undefined;
      if (closedReason !== undefined) return;
      try {
        if (options.closeTarget) await options.closeTarget();
        else await transport.send('Page.close');
      } catch {
        // Already gone: closing is idempotent and best effort.
      }
    })();
    return closing;
  }

  // Create the world early so the first snapshot does not pay for it; a failure here (the page
  // still navigating) is retried on first use.
  ensureWorld().catch(() => undefined);

  return {
    snapshot,
    captureState,
    act,
    screenshot,
    closed,
    close,
  };
}
