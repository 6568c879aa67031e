// CdpTransport over Playwright's CDPSession (the web shell's way onto a page of the Chromium
// it launched).
import type { CDPSession, Page } from 'playwright-core';
import type { CdpTransport, Dispose, TargetCloseReason } from './types.js';

type AnyListener = (params: unknown) => void;
// CDPSession's methods are typed per protocol method; the transport is untyped by design.
interface LooseSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: AnyListener): unknown;
  off(event: string, listener: AnyListener): unknown;
}

/**
 * Wraps `session` (made by `context.newCDPSession(page)`) as a CdpTransport. `closed`
 * resolves `closed` when the page closes, `crashed` when it crashes, and `detached` when the
 * browser disconnects or the session ends while the page lives.
 */
export function createPlaywrightTransport(session: CDPSession, page: Page): CdpTransport {
  const loose = session as unknown as LooseSession;
  const browser = page.context().browser();
  let settle!: (reason: TargetCloseReason) => void;
  const closed = new Promise<TargetCloseReason>((resolve) => {
    settle = resolve;
  });
  let done = false;

  const onPageClose = (): void => finish('closed');
  const onCrash = (): void => finish('crashed');
  const onDisconnected = (): void => finish('detached');
  // The session may report its end before the page reports its close; give the page's
  // event a turn to arrive so a closed page is not mistaken for a detach.
  const onSessionClose = (): void => {
    setTimeout(() => finish(page.isClosed() ? 'closed' : 'detached'), 50);
  };

  function finish(reason: TargetCloseReason): void {
    if (done) return;
    done = true;
    page.off('close', onPageClose);
    page.off('crash', onCrash);
    browser?.off('disconnected', onDisconnected);
    session.off('close', onSessionClose);
    settle(reason);
  }

  page.on('close', onPageClose);
  page.on('crash', onCrash);
  browser?.on('disconnected', onDisconnected);
  session.on('close', onSessionClose);

  return {
    send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
      return loose.send(method, params) as Promise<T>;
    },
    on(event: string, listener: AnyListener): Dispose {
      loose.on(event, listener);
      return () => {
        loose.off(event, listener);
      };
    },
    closed,
  };
}
