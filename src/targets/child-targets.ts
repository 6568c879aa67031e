// Out-of-process iframes (a cross-site frame under site isolation) are CDP targets of their
// own: the page's session cannot run script in them or walk them. This module auto-attaches to
// a session's iframe targets and gives each one a CdpTransport, through one of two mechanisms:
//
// - flat mode, when the transport offers `child(sessionId)` (Electron's debugger:
//   `sendCommand(method, params, sessionId)`);
// - otherwise non-flat mode: `Target.sendMessageToTarget` and the
//   `Target.receivedMessageFromTarget` event on the parent session, which needs nothing but
//   send/on (Playwright's CDPSession: Playwright's own session uses flat mode, but a separate
//   CDPSession's auto-attach is its own and may be non-flat).
//
// Each attached iframe target auto-attaches its own children the same way, so nested
// cross-site frames are reached too. Other targets (workers) are detached at once.
import type { CdpTransport, Dispose, TargetCloseReason } from './types.js';

export interface ChildTarget {
  /** For an iframe target, the id of the frame it renders (Chromium uses the frame id). */
  targetId: string;
  transport: CdpTransport;
  /** This target's own iframe targets (nested cross-site frames). */
  children: ChildTargets;
}

export interface ChildTargets {
  /** The attached iframe target rendering frame `frameId`, if any. */
  get(frameId: string): ChildTarget | undefined;
  /** Stops listening and detaches every child (best effort). */
  dispose(): void;
}

interface AttachedParams {
  sessionId?: string;
  targetInfo?: { targetId?: string; type?: string };
  waitingForDebugger?: boolean;
}

interface ProtocolMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: string };
}

type Listener = (params: unknown) => void;

/** A non-flat child session: commands and events travel wrapped in the parent's Target domain. */
class WrappedSession implements CdpTransport {
  readonly closed: Promise<TargetCloseReason>;
  private settle!: (reason: TargetCloseReason) => void;
  private done: TargetCloseReason | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly parent: CdpTransport,
    private readonly sessionId: string,
  ) {
    this.closed = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
    if (this.done) return Promise.reject(new Error(`cannot send ${method}: the frame target is ${this.done}`));
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
    });
    this.parent
      .send('Target.sendMessageToTarget', { sessionId: this.sessionId, message: JSON.stringify({ id, method, params: params ?? {} }) })
      .catch((error: unknown) => this.fail(id, error instanceof Error ? error : new Error(String(error))));
    return answer;
  }

  on(event: string, listener: Listener): Dispose {
    if (this.done) return () => {};
    let forEvent = this.listeners.get(event);
    if (!forEvent) {
      forEvent = new Set();
      this.listeners.set(event, forEvent);
    }
    forEvent.add(listener);
    return () => {
      this.listeners.get(event)?.delete(listener);
    };
  }

  /** One message the child sent, as the parent received it. */
  receive(raw: string): void {
    let message: ProtocolMessage;
    try {
      message = JSON.parse(raw) as ProtocolMessage;
    } catch {
      return;
    }
    if (typeof message.id === 'number') {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message ?? 'protocol error'}`));
      else waiting.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method !== 'string') return;
    const forEvent = this.listeners.get(message.method);
    if (forEvent) for (const listener of [...forEvent]) listener(message.params);
  }

  private fail(id: number, error: Error): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    waiting.reject(error);
  }

  finish(reason: TargetCloseReason): void {
    if (this.done) return;
    this.done = reason;
    for (const [id] of this.pending) this.fail(id, new Error(`the frame target is ${reason}`));
    this.listeners.clear();
    this.settle(reason);
  }
}

/**
 * Turns on auto-attach for `parent`'s iframe targets and tracks them. Resolves once the
 * targets that exist already are attached (Chromium reports them before answering).
 */
export async function attachChildTargets(parent: CdpTransport): Promise<ChildTargets> {
  const flat = typeof parent.child === 'function';
  const bySession = new Map<string, { target: ChildTarget; wrapped?: WrappedSession }>();
  const byFrame = new Map<string, ChildTarget>();
  const disposers: Dispose[] = [];
  let disposed = false;

  function forget(sessionId: string, reason: TargetCloseReason): void {
    const entry = bySession.get(sessionId);
    if (!entry) return;
    bySession.delete(sessionId);
    if (byFrame.get(entry.target.targetId) === entry.target) byFrame.delete(entry.target.targetId);
    entry.target.children.dispose();
    entry.wrapped?.finish(reason);
  }

  disposers.push(
    parent.on('Target.attachedToTarget', (params) => {
      const { sessionId, targetInfo, waitingForDebugger } = (params ?? {}) as AttachedParams;
      if (disposed || typeof sessionId !== 'string') return;
      if (targetInfo?.type !== 'iframe' || typeof targetInfo.targetId !== 'string') {
        // Workers and the like: nothing of ours runs there.
        parent.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
        return;
      }
      const wrapped = flat ? undefined : new WrappedSession(parent, sessionId);
      const transport = wrapped ?? parent.child!(sessionId);
      const pendingChildren = lazyChildren(transport);
      const target: ChildTarget = { targetId: targetInfo.targetId, transport, children: pendingChildren };
      bySession.set(sessionId, { target, wrapped });
      byFrame.set(target.targetId, target);
      if (waitingForDebugger) transport.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
    }),
    parent.on('Target.detachedFromTarget', (params) => {
      const { sessionId } = (params ?? {}) as { sessionId?: string };
      if (typeof sessionId === 'string') forget(sessionId, 'detached');
    }),
  );
  if (!flat) {
    disposers.push(
      parent.on('Target.receivedMessageFromTarget', (params) => {
        const { sessionId, message } = (params ?? {}) as { sessionId?: string; message?: string };
        if (typeof sessionId !== 'string' || typeof message !== 'string') return;
        bySession.get(sessionId)?.wrapped?.receive(message);
      }),
    );
  }
  void parent.closed.then((reason) => {
    for (const sessionId of [...bySession.keys()]) forget(sessionId, reason);
  });

  try {
    await parent.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: flat });
  } catch (error) {
    for (const dispose of disposers.splice(0)) dispose();
    throw error;
  }

  return {
    get(frameId: string): ChildTarget | undefined {
      return byFrame.get(frameId);
    },
    dispose(): void {
      if (disposed) return;
      disposed = true;
      for (const dispose of disposers.splice(0)) dispose();
      for (const sessionId of [...bySession.keys()]) {
        parent.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
        forget(sessionId, 'detached');
      }
    },
  };
}

/**
 * A child's own child targets, attached in the background as soon as the child is (so a
 * nested frame is known by the time the child is walked); a failure leaves it with none.
 */
function lazyChildren(transport: CdpTransport): ChildTargets {
  let inner: ChildTargets | undefined;
  let disposed = false;
  attachChildTargets(transport).then(
    (children) => {
      if (disposed) children.dispose();
      else inner = children;
    },
    () => undefined,
  );
  return {
    get: (frameId) => inner?.get(frameId),
    dispose() {
      disposed = true;
      inner?.dispose();
    },
  };
}
