// The target driver over one CDP connection (the same code in both shells). Snapshot and
// act each cost one `Runtime.callFunctionOn` into an isolated world where page-agent.ts runs;
// input goes through raw `Input.*` events, so the page sees a real click or key press.
//
// Cross-origin iframes: the page agent cannot enter them, so its walk reports each as a frame
// hole. The driver finds that iframe's frame (`DOM.describeNode` gives its frame id), runs an
// agent of its own in an isolated world of that frame (over the page's session for a frame in
// the page's process, over the frame's own target for an out-of-process one, see
// child-targets.ts) and splices the frame's elements in where the iframe stands. Acting on an
// element of such a frame resolves and hit-tests it in the frame, maps the point up through
// each parent's iframe box, and sends the input to the top page, which Chromium routes to the
// frame. A page without cross-origin iframes pays nothing for this.
import { ToolError } from '../contract/errors.js';
import type { ElementOp } from '../contract/types.js';
import { decideCaptureState, type CaptureDecision } from '../policy/capture-safe.js';
import { normalizeOrigin } from '../policy/origins.js';
import { SECURE_AUTOCOMPLETE_TOKENS } from '../policy/secure-fields.js';
import { attachChildTargets, type ChildTargets } from './child-targets.js';
import { keyEventSequence, parseKey, type ParsedKey } from './keys.js';
import {
  AGENT_GLOBAL,
  OP_CLICK,
  OP_PRESS,
  OP_TYPE,
  PAGE_AGENT_SOURCE,
  type FrameHole,
  type FramePoint,
  type PageCapture,
  type PageElement,
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
  /** The agent's id for this world: the prefix of every nodeKey it hands out. */
  worldId: string;
}

/**
 * A document the driver runs an agent in: the top frame, or a cross-origin iframe's frame.
 * Same-origin iframes need none: their parent's agent walks them.
 */
interface Frame {
  /** The CDP frame id; the top frame's is looked up when its world is made. */
  frameId: string | undefined;
  /** The session that hosts the frame (the page's, or an out-of-process frame's own target). */
  session: CdpTransport;
  /** That session's out-of-process iframe targets. */
  targets: ChildTargets | undefined;
  /** For a child frame: its parent frame and the nodeKey of its iframe element there. */
  parent?: Frame;
  ownerKey?: string;
  world?: Promise<World>;
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

  const disposers: Dispose[] = [];
  const top: Frame = { frameId: undefined, session: transport, targets: undefined };
  /** Child frames by frame id, so each keeps its world from one snapshot to the next. */
  const frames = new Map<string, Frame>();
  /** Which frame each live world (by the agent's world id) belongs to: where a nodeKey acts. */
  const worlds = new Map<string, Frame>();

  // A new document in the main frame has a new isolated world: drop the old one. (A child
  // frame's world is found gone when a call into it fails, and made again.)
  disposers.push(
    transport.on('Page.frameNavigated', (params) => {
      const frame = (params as { frame?: { parentId?: string } } | undefined)?.frame;
      if (frame && !frame.parentId) {
        dropWorld(top, top.world);
        // Every frame below went with the old document.
        for (const child of frames.values()) dropWorld(child, child.world);
        frames.clear();
      }
    }),
  );
  await transport.send('Page.enable');
  // Out-of-process iframes are targets of their own: attach to them once, here, and reuse.
  // A transport that cannot (an old browser) still drives the page and its in-process frames.
  try {
    top.targets = await attachChildTargets(transport);
    disposers.push(() => top.targets?.dispose());
  } catch {
    top.targets = undefined;
  }

  function dropWorld(frame: Frame, which: Promise<World> | undefined): void {
    if (!which || frame.world !== which) return;
    frame.world = undefined;
    which.then(
      (gone) => {
        if (worlds.get(gone.worldId) === frame) worlds.delete(gone.worldId);
      },
      () => undefined,
    );
  }

  async function createWorld(frame: Frame): Promise<World> {
    const { session } = frame;
    let frameId = frame.frameId;
    if (frameId === undefined) {
      const tree = await session.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree');
      frameId = tree.frameTree.frame.id;
    }
    const { executionContextId } = await session.send<{ executionContextId: number }>('Page.createIsolatedWorld', {
      frameId,
      worldName: WORLD_NAME,
      // The world needs no more reach than the page's own scripts have.
      grantUniveralAccess: false,
    });
    const installed = await session.send<CallFunctionResult>('Runtime.callFunctionOn', {
      functionDeclaration: PAGE_AGENT_SOURCE,
      executionContextId,
      arguments: [{ value: SECURE_AUTOCOMPLETE_TOKENS }],
      returnByValue: true,
      silent: true,
    });
    if (installed.exceptionDetails) throw new Error(`installing the page agent failed: ${exceptionText(installed)}`);
    const worldId = String(installed.result?.value);
    worlds.set(worldId, frame);
    return { contextId: executionContextId, worldId };
  }

  function ensureWorld(frame: Frame): Promise<World> {
    if (!frame.world) {
      const created = createWorld(frame);
      frame.world = created;
      created.catch(() => dropWorld(frame, created));
    }
    return frame.world;
  }

  function exceptionText(result: CallFunctionResult): string {
    return result.exceptionDetails?.exception?.description ?? result.exceptionDetails?.text ?? 'unknown exception';
  }

  async function callOnce<T>(frame: Frame, method: string, args: unknown[]): Promise<T> {
    const worldPromise = ensureWorld(frame);
    try {
      const current = await worldPromise;
      const result = await frame.session.send<CallFunctionResult>('Runtime.callFunctionOn', {
        functionDeclaration: `function () { var a = globalThis.${AGENT_GLOBAL}; if (!a) throw new Error('AGENT_MISSING'); return a.${method}.apply(a, arguments); }`,
        executionContextId: current.contextId,
        arguments: args.map((value) => ({ value })),
        returnByValue: true,
        // Only settle answers with a promise; the rest stay one plain call.
        awaitPromise: method === 'settle',
        silent: true,
      });
      if (result.exceptionDetails) throw new Error(`page agent ${method} failed: ${exceptionText(result)}`);
      return result.result?.value as T;
    } catch (error) {
      // Only drop the world this call used: a concurrent call may have made a new one already.
      if (isContextLost(error)) dropWorld(frame, worldPromise);
      throw error;
    }
  }

  /** Calls a frame's agent, re-creating its isolated world once if the document was replaced. */
  async function callAgent<T>(frame: Frame, method: string, args: unknown[], timeoutMs: number): Promise<T> {
    const attempt = async (): Promise<T> => {
      try {
        return await callOnce<T>(frame, method, args);
      } catch (error) {
        if (!isContextLost(error)) throw error;
        return callOnce<T>(frame, method, args);
      }
    };
    return withTimeout(attempt(), timeoutMs, frame === top ? 'the page' : 'a frame of the page');
  }

  /** The frame behind the iframe element `ownerKey` of `parent`, or undefined when it has none (yet). */
  async function childFrame(parent: Frame, ownerKey: string): Promise<Frame | undefined> {
    const world = await ensureWorld(parent);
    const found = await parent.session.send<CallFunctionResult & { result?: { objectId?: string } }>('Runtime.callFunctionOn', {
      functionDeclaration: `function (key) { var a = globalThis.${AGENT_GLOBAL}; return a ? a.element(key) : null; }`,
      executionContextId: world.contextId,
      arguments: [{ value: ownerKey }],
      silent: true,
    });
    const objectId = found.result?.objectId;
    if (!objectId) return undefined;
    let frameId: string | undefined;
    try {
      const { node } = await parent.session.send<{ node: { frameId?: string } }>('DOM.describeNode', { objectId });
      frameId = node.frameId;
    } finally {
      parent.session.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
    }
    if (!frameId) return undefined;
    // An out-of-process frame is its own target (its id is the frame's); else the frame lives
    // in the parent's process and its world is made over the parent's session.
    const own = parent.targets?.get(frameId);
    const session = own ? own.transport : parent.session;
    let frame = frames.get(frameId);
    if (!frame || frame.session !== session || frame.parent !== parent || frame.ownerKey !== ownerKey) {
      if (frame) dropWorld(frame, frame.world);
      frame = { frameId, session, targets: own ? own.children : parent.targets, parent, ownerKey };
      frames.set(frameId, frame);
      const made = frame;
      void session.closed.then(() => {
        if (frames.get(frameId) === made) frames.delete(frameId);
        dropWorld(made, made.world);
      });
    }
    return frame;
  }

  interface Walked {
    elements: PageElement[];
    truncated: boolean;
  }

  /**
   * Splices the elements of the cross-origin frames at `holes` into `elements` (the walk of
   * `frame`), in document order, cut at `limit`. A frame on an origin that is not allowed, or
   * that fails or does not answer by `deadline`, is left out.
   */
  async function withFrames(frame: Frame, walked: Walked, holes: FrameHole[], limit: number, deadline: number): Promise<Walked> {
    if (holes.length === 0) return walked;
    const inner = await Promise.all(holes.map(([ownerKey, before]) => walkChild(frame, ownerKey, limit - before, deadline)));
    const out: PageElement[] = [];
    let truncated = walked.truncated;
    let from = 0;
    holes.forEach(([, before], index) => {
      for (; from < before; from++) out.push(walked.elements[from] as PageElement);
      const child = inner[index];
      if (!child) return;
      out.push(...child.elements);
      truncated ||= child.truncated;
    });
    for (; from < walked.elements.length; from++) out.push(walked.elements[from] as PageElement);
    if (out.length > limit) {
      out.length = limit;
      truncated = true;
    }
    return { elements: out, truncated };
  }

  async function walkChild(parent: Frame, ownerKey: string, limit: number, deadline: number): Promise<Walked | undefined> {
    try {
      const frame = await withTimeout(childFrame(parent, ownerKey), Math.max(deadline - Date.now(), 1), 'a frame of the page');
      if (!frame) return undefined;
      const page = await callAgent<PageSnapshot>(frame, 'snapshot', [allowedOrigins, Math.max(limit, 0), true], Math.max(deadline - Date.now(), 1));
      // Listed only when the frame's own origin is allowed (the capture-safe rule's origins).
      if (!page.elements) return undefined;
      return await withFrames(frame, { elements: page.elements, truncated: page.truncated }, page.frames ?? [], limit, deadline);
    } catch {
      return undefined;
    }
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
      const capture = await callAgent<PageCapture>(top, 'capture', [], captureTimeoutMs);
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
    const deadline = Date.now() + snapshotTimeoutMs;
    let page: PageSnapshot;
    try {
      page = await callAgent<PageSnapshot>(top, 'snapshot', [allowedOrigins, maxElements], snapshotTimeoutMs);
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
    const walked = await withFrames(top, { elements: page.elements, truncated: page.truncated }, page.frames ?? [], maxElements, deadline);
    const elements: DriverElement[] = walked.elements.map(([nodeKey, role, label, mask, secure]) => ({
      nodeKey,
      role,
      label,
      ops: opsFromMask(mask),
      secure: secure === 1,
    }));
    return { captureState: 'safe', elements, truncated: walked.truncated };
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

  /**
   * Maps a point of `frame`'s viewport to the top page's, through each cross-origin parent's
   * iframe box (border and padding included), checking the iframe is what is at that point.
   */
  async function topPoint(
    frame: Frame,
    prepared: PagePrepare,
    expect: { role: string; label: string },
  ): Promise<{ x: number; y: number }> {
    const target = describeTarget(expect);
    let x = prepared.x as number;
    let y = prepared.y as number;
    let scrolled = prepared.scrolled === true;
    const chain: Frame[] = [frame];
    for (let child = frame; child.parent; child = child.parent) {
      chain.push(child.parent);
      let mapped: FramePoint;
      try {
        mapped = await callAgent<FramePoint>(child.parent, 'framePoint', [child.ownerKey, x, y], captureTimeoutMs);
      } catch (error) {
        if (error instanceof PageTimeout) throw new ToolError('invalid_arguments', `the page holding ${target} did not answer within ${captureTimeoutMs} ms`);
        throw new ToolError('invalid_arguments', `ref for ${target} is gone or changed; take a new snapshot`);
      }
      switch (mapped.status) {
        case 'ok':
          break;
        case 'gone':
          throw new ToolError('invalid_arguments', `ref for ${target} is gone or changed (its frame is gone); take a new snapshot`);
        case 'hidden':
          throw new ToolError('invalid_arguments', `${target} is no longer visible (its frame is hidden); take a new snapshot`);
        case 'covered':
          throw new ToolError('invalid_arguments', `${target} is covered by ${mapped.coveredBy ?? 'another element'}`);
        default:
          throw new ToolError('invalid_arguments', `${target} cannot be scrolled into view`);
      }
      x = mapped.x as number;
      y = mapped.y as number;
      scrolled ||= mapped.scrolled === true;
    }
    // Input for an out-of-process frame is routed by where the browser last saw it drawn: after
    // a scroll, let every document of the chain render before clicking, or the click is lost.
    if (scrolled && chain.length > 1) {
      await Promise.all(chain.map((each) => callAgent(each, 'settle', [], captureTimeoutMs).catch(() => undefined)));
    }
    return { x, y };
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

    // The key's world names the frame it was listed in; a key no world claims is tried on the
    // top page, whose agent finds it gone (after the capture check, as for any key).
    const frame = worlds.get(input.nodeKey.slice(0, input.nodeKey.indexOf('.'))) ?? top;
    const framed = frame !== top;
    const gone = (): ToolError =>
      new ToolError('invalid_arguments', `ref for ${describeTarget(expect)} is gone or changed; take a new snapshot`);
    if (framed) {
      // The capture-safe rule is the top document's: check it first, as the top's prepare does.
      const state = await captureState();
      if (state.state !== 'safe') throw new ToolError('capture_unsafe', `the target is not capture-safe: ${state.reason ?? state.state}`);
    }

    let prepared: PagePrepare;
    try {
      prepared = await callAgent<PagePrepare>(
        frame,
        'prepare',
        [allowedOrigins, input.nodeKey, expect.role, expect.label, input.op, framed],
        captureTimeoutMs,
      );
    } catch (error) {
      if (error instanceof PageTimeout) {
        if (framed) throw new ToolError('invalid_arguments', `the frame holding ${describeTarget(expect)} did not answer within ${captureTimeoutMs} ms`);
        throw new ToolError('capture_unsafe', `the target is not capture-safe: the page did not answer within ${captureTimeoutMs} ms`);
      }
      // The frame was removed, or its target went away.
      if (framed) throw gone();
      throw error;
    }
    // A child frame's origin no longer allowed: its elements are not listed, so the ref is gone.
    if (framed && prepared.status === 'unsafe') throw gone();
    const refused = refusal(prepared, input, expect);
    if (refused) throw refused;

    signal?.throwIfAborted();
    const outcome: ActOutcome = { role: expect.role, label: expect.label };
    if (input.op === 'press' && key) {
      // Key events go to the focused frame, which prepare made the element's.
      await Promise.all(keyEventSequence(key, platform).map((event) => transport.send('Input.dispatchKeyEvent', event)));
      return outcome;
    }
    const point = await topPoint(frame, prepared, expect);
    signal?.throwIfAborted();
    await click(point.x, point.y);
    if (input.op === 'click') return outcome;

    // type: the click focused the field; type at its end, never into whatever else has focus.
    let focused: boolean;
    try {
      focused = await callAgent<boolean>(frame, 'caretToEnd', [input.nodeKey, framed], captureTimeoutMs);
    } catch (error) {
      if (framed && !(error instanceof PageTimeout)) throw gone();
      throw error;
    }
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
      dropWorld(top, top.world);
      frames.clear();
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
  ensureWorld(top).catch(() => undefined);

  return {
    snapshot,
    captureState,
    act,
    screenshot,
    closed,
    close,
  };
}
