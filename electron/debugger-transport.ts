// CdpTransport over a BrowserWindow's `webContents.debugger`: the Electron shell's way onto a
// target page, so the same CDP driver runs here and in the web shell.
import type { RenderProcessGoneDetails, WebContents } from 'electron';
import type { CdpTransport, Dispose, TargetCloseReason } from '../src/targets/types.js';

/** The CDP protocol version Electron's debugger speaks. */
export const CDP_PROTOCOL_VERSION = '1.3';

/** What the transport uses of a webContents. */
export type DebuggedContents = Pick<WebContents, 'debugger' | 'isDestroyed' | 'on' | 'off'>;

/** A detach is reported after this long, so a window that is closing is seen as closed. */
const DETACH_SETTLE_MS = 50;

type Listener = (params: unknown) => void;

/** Listeners by event name, for one session. */
class Listeners {
  private readonly byEvent = new Map<string, Set<Listener>>();
  add(event: string, listener: Listener): Dispose {
    let forEvent = this.byEvent.get(event);
    if (!forEvent) {
      forEvent = new Set();
      this.byEvent.set(event, forEvent);
    }
    forEvent.add(listener);
    return () => {
      const current = this.byEvent.get(event);
      current?.delete(listener);
      if (current?.size === 0) this.byEvent.delete(event);
    };
  }
  emit(event: string, params: unknown): void {
    const forEvent = this.byEvent.get(event);
    if (!forEvent) return;
    for (const listener of [...forEvent]) listener(params);
  }
  clear(): void {
    this.byEvent.clear();
  }
}

/** A flat-mode child session (an out-of-process iframe the page's session attached to). */
interface ChildSession {
  listeners: Listeners;
  done: TargetCloseReason | null;
  closed: Promise<TargetCloseReason>;
  settle: (reason: TargetCloseReason) => void;
}

function newChildSession(): ChildSession {
  let settle!: (reason: TargetCloseReason) => void;
  const closed = new Promise<TargetCloseReason>((resolve) => {
    settle = resolve;
  });
  return { listeners: new Listeners(), done: null, closed, settle };
}

/**
 * Attaches the debugger of `contents` (it must not be attached already) and wraps it.
 * `closed` resolves `closed` when the page's webContents is destroyed (or its renderer
 * exits cleanly), `crashed` when the renderer dies otherwise, and `detached` when the debugger
 * is detached while the page lives (someone else took it, or `detach()` was called).
 *
 * `child(sessionId)` gives a transport onto a child session in CDP flat mode (the driver's
 * out-of-process iframes, after `Target.setAutoAttach` with `flatten: true`): commands go
 * through `sendCommand(method, params, sessionId)`, and the debugger's `message` events that
 * carry that session id are its events.
 */
export function attachDebuggerTransport(contents: DebuggedContents, protocolVersion = CDP_PROTOCOL_VERSION): CdpTransport {
  const dbg = contents.debugger;
  if (dbg.isAttached()) throw new Error('the target page already has a debugger attached');
  dbg.attach(protocolVersion);

  const listeners = new Listeners();
  const children = new Map<string, ChildSession>();
  let settle!: (reason: TargetCloseReason) => void;
  const closed = new Promise<TargetCloseReason>((resolve) => {
    settle = resolve;
  });
  let done: TargetCloseReason | null = null;
  let detachTimer: NodeJS.Timeout | undefined;

  const onMessage = (_event: unknown, method: string, params: unknown, sessionId?: string) => {
    if (done) return;
    if (method === 'Target.detachedFromTarget') {
      const detached = (params as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof detached === 'string') endChild(detached, 'detached');
    }
    // A child session's events (an out-of-process frame) are its own, never the page's.
    if (sessionId) children.get(sessionId)?.listeners.emit(method, params);
    else listeners.emit(method, params);
  };

  function endChild(sessionId: string, reason: TargetCloseReason): void {
    const child = children.get(sessionId);
    if (!child) return;
    children.delete(sessionId);
    child.done = reason;
    child.listeners.clear();
    child.settle(reason);
  }
  const onDetach = () => {
    if (done) return;
    clearTimeout(detachTimer);
    detachTimer = setTimeout(() => finish(contents.isDestroyed() ? 'closed' : 'detached'), DETACH_SETTLE_MS);
  };
  const onGone = (_event: unknown, details: RenderProcessGoneDetails) => finish(details.reason === 'clean-exit' ? 'closed' : 'crashed');
  const onDestroyed = () => finish('closed');

  function finish(reason: TargetCloseReason): void {
    if (done) return;
    done = reason;
    clearTimeout(detachTimer);
    dbg.off('message', onMessage);
    dbg.off('detach', onDetach);
    contents.off('render-process-gone', onGone);
    contents.off('destroyed', onDestroyed);
    listeners.clear();
    for (const sessionId of [...children.keys()]) endChild(sessionId, reason);
    settle(reason);
  }

  // In flat mode every session, however deeply nested, is addressed by its id on this one
  // debugger: a child's children come from the same function.
  function child(sessionId: string): CdpTransport {
    if (typeof sessionId !== 'string' || sessionId === '') throw new Error('child needs a session id');
    let session = children.get(sessionId);
    if (!session) {
      session = newChildSession();
      if (done) {
        session.done = done;
        session.settle(done);
      } else {
        children.set(sessionId, session);
      }
    }
    const own = session;
    return {
      async send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
        if (own.done) throw new Error(`cannot send ${method}: the frame target is ${own.done}`);
        return (await dbg.sendCommand(method, params ?? {}, sessionId)) as T;
      },
      on(event: string, listener: Listener): Dispose {
        if (own.done) return () => {};
        return own.listeners.add(event, listener);
      },
      closed: own.closed,
      child,
    };
  }

  dbg.on('message', onMessage);
  dbg.on('detach', onDetach);
  contents.on('render-process-gone', onGone);
  contents.on('destroyed', onDestroyed);

  return {
    async send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
      if (done) throw new Error(`cannot send ${method}: the target is ${done}`);
      return (await dbg.sendCommand(method, params ?? {})) as T;
    },
    on(event: string, listener: Listener): Dispose {
      if (done) return () => {};
      return listeners.add(event, listener);
    },
    closed,
    child,
  };
}
