// The documents the driver runs a page agent in, and calls into them. Each gets an isolated
// world with the agent installed (page-agent.generated.ts); a call re-creates the world once
// when the document was replaced under it.
//
// Cross-origin iframes: the page agent cannot enter them, so its walk reports each as a frame
// hole. `childFrame` finds that iframe's frame (`DOM.describeNode` gives its frame id) and
// gives it an agent of its own, over the page's session for a frame in the page's process, over
// the frame's own target for an out-of-process one (see child-targets.ts). A page without
// cross-origin iframes pays nothing for this.
import { SECURE_AUTOCOMPLETE_TOKENS } from '../policy/secure-fields.js';
import type { ChildTargets } from './child-targets.js';
import { PAGE_AGENT_SOURCE } from './page-agent.generated.js';
import { AGENT_GLOBAL, type PageAgentMethod } from './page-agent/protocol.js';
import type { CdpTransport } from './types.js';

/** The name of the agent's isolated worlds (`Page.createIsolatedWorld`). */
export const WORLD_NAME = 'cutright';

/** The page did not answer in time. */
export class PageTimeout extends Error {
  override readonly name = 'PageTimeout';
}

export interface World {
  contextId: number;
  /** The agent's id for this world: the prefix of every nodeKey it hands out. */
  worldId: string;
}

/**
 * A document the driver runs an agent in: the top frame, or a cross-origin iframe's frame.
 * Same-origin iframes need none: their parent's agent walks them.
 */
export interface Frame {
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
  result?: { value?: unknown; objectId?: string };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

function exceptionText(result: CallFunctionResult): string {
  return result.exceptionDetails?.exception?.description ?? result.exceptionDetails?.text ?? 'unknown exception';
}

/** Errors after which the isolated world must be created again (the document was replaced). */
function isContextLost(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Cannot find context|Execution context was destroyed|Cannot find default execution context|Inspected target navigated|Frame with the given id was not found|No frame for given id|AGENT_MISSING/i.test(
    message,
  );
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageTimeout(`${what} did not answer within ${ms} ms`)), ms);
  });
  // A late answer or failure of the abandoned call must not surface as an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class AgentFrames {
  readonly top: Frame;
  /** Child frames by frame id, so each keeps its world from one snapshot to the next. */
  private readonly frames = new Map<string, Frame>();
  /** Which frame each live world (by the agent's world id) belongs to: where a nodeKey acts. */
  private readonly worlds = new Map<string, Frame>();

  constructor(transport: CdpTransport) {
    this.top = { frameId: undefined, session: transport, targets: undefined };
  }

  /**
   * Forgets every world: the main frame has a new document (the top's world and each frame's
   * below went with the old one), or the driver is closing.
   */
  forgetWorlds(): void {
    this.dropWorld(this.top, this.top.world);
    for (const child of this.frames.values()) this.dropWorld(child, child.world);
    this.frames.clear();
  }

  /** True when `worldId` is the agent of the top frame's current document. */
  isTopWorld(worldId: string): boolean {
    return this.worlds.get(worldId) === this.top;
  }

  /** The frame whose agent handed out `nodeKey`; a key no world claims is the top page's. */
  frameOfKey(nodeKey: string): Frame {
    return this.worlds.get(nodeKey.slice(0, nodeKey.indexOf('.'))) ?? this.top;
  }

  private dropWorld(frame: Frame, which: Promise<World> | undefined): void {
    if (!which || frame.world !== which) return;
    frame.world = undefined;
    which.then(
      (gone) => {
        if (this.worlds.get(gone.worldId) === frame) this.worlds.delete(gone.worldId);
      },
      () => undefined,
    );
  }

  private async createWorld(frame: Frame): Promise<World> {
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
    this.worlds.set(worldId, frame);
    return { contextId: executionContextId, worldId };
  }

  /** The frame's world, made (and the agent installed) when it has none. */
  ensureWorld(frame: Frame): Promise<World> {
    if (!frame.world) {
      const created = this.createWorld(frame);
      frame.world = created;
      created.catch(() => this.dropWorld(frame, created));
    }
    return frame.world;
  }

  private async callOnce<T>(frame: Frame, method: PageAgentMethod, args: unknown[]): Promise<T> {
    const worldPromise = this.ensureWorld(frame);
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
      if (isContextLost(error)) this.dropWorld(frame, worldPromise);
      throw error;
    }
  }

  /** Calls a frame's agent, re-creating its isolated world once if the document was replaced. */
  call<T>(frame: Frame, method: PageAgentMethod, args: unknown[], timeoutMs: number): Promise<T> {
    const attempt = async (): Promise<T> => {
      try {
        return await this.callOnce<T>(frame, method, args);
      } catch (error) {
        if (!isContextLost(error)) throw error;
        return this.callOnce<T>(frame, method, args);
      }
    };
    return withTimeout(attempt(), timeoutMs, frame === this.top ? 'the page' : 'a frame of the page');
  }

  /** The CDP frame id of the iframe element `ownerKey` of `parent`, or undefined. */
  private async iframeFrameId(parent: Frame, ownerKey: string): Promise<string | undefined> {
    const world = await this.ensureWorld(parent);
    const found = await parent.session.send<CallFunctionResult>('Runtime.callFunctionOn', {
      functionDeclaration: `function (key) { var a = globalThis.${AGENT_GLOBAL}; return a ? a.element(key) : null; }`,
      executionContextId: world.contextId,
      arguments: [{ value: ownerKey }],
      silent: true,
    });
    const objectId = found.result?.objectId;
    if (!objectId) return undefined;
    try {
      const { node } = await parent.session.send<{ node: { frameId?: string } }>('DOM.describeNode', { objectId });
      return node.frameId;
    } finally {
      parent.session.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
    }
  }

  /** The frame behind the iframe element `ownerKey` of `parent`, or undefined when it has none (yet). */
  async childFrame(parent: Frame, ownerKey: string): Promise<Frame | undefined> {
    const frameId = await this.iframeFrameId(parent, ownerKey);
    if (!frameId) return undefined;
    // An out-of-process frame is its own target (its id is the frame's); else the frame lives
    // in the parent's process and its world is made over the parent's session.
    const own = parent.targets?.get(frameId);
    const session = own ? own.transport : parent.session;
    let frame = this.frames.get(frameId);
    if (!frame || frame.session !== session || frame.parent !== parent || frame.ownerKey !== ownerKey) {
      if (frame) this.dropWorld(frame, frame.world);
      frame = { frameId, session, targets: own ? own.children : parent.targets, parent, ownerKey };
      this.frames.set(frameId, frame);
      const made = frame;
      void session.closed.then(() => {
        if (this.frames.get(frameId) === made) this.frames.delete(frameId);
        this.dropWorld(made, made.world);
      });
    }
    return frame;
  }
}
