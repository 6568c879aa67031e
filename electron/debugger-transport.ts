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

/**
 * Attaches the debugger of `contents` (it must not be attached already) and wraps it.
 * `closed` resolves `closed` when the page's webContents is destroyed (or its renderer
 * exits cleanly), `crashed` when the renderer dies otherwise, and `detached` when the debugger
 * is detached while the page lives (someone else took it, or `detach()` was called).
 */
export function attachDebuggerTransport(contents: DebuggedContents, protocolVersion = CDP_PROTOCOL_VERSION): CdpTransport {
  const dbg = contents.debugger;
  if (dbg.isAttached()) throw new Error('the target page already has a debugger attached');
  dbg.attach(protocolVersion);

  const listeners = new Map<string, Set<Listener>>();
  let settle!: (reason: TargetCloseReason) => void;
  const closed = new Promise<TargetCloseReason>((resolve) => {
    settle = resolve;
  });
  let done: TargetCloseReason | null = null;
  let detachTimer: NodeJS.Timeout | undefined;

  const onMessage = (_event: unknown, method: string, params: unknown, sessionId?: string) => {
    // Child sessions (workers, out-of-process frames) are not this page's events.
    if (done || sessionId) return;
    const forMethod = listeners.get(method);
    if (!forMethod) return;
    for (const listener of [...forMethod]) listener(params);
  };
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
    settle(reason);
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
      let forEvent = listeners.get(event);
      if (!forEvent) {
        forEvent = new Set();
        listeners.set(event, forEvent);
      }
      forEvent.add(listener);
      return () => {
        const current = listeners.get(event);
        current?.delete(listener);
        if (current?.size === 0) listeners.delete(event);
      };
    },
    closed,
  };
}
