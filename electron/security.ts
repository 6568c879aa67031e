// The rules every webContents and every session of the app follows: no new windows, no
// navigation away from the app's own page (host windows) or off the web (targets), no
// webviews, no downloads, every permission denied. Applied from app 'web-contents-created'
// so nothing is created without them.
import type { Session, WebContents } from 'electron';
import { isAppPageUrl } from './app-protocol.js';

/** host: a window of CutRight itself; target: a web app being demoed; other: anything else (devtools), treated as strictly as a host window. */
export type ContentsKind = 'host' | 'target' | 'other';

/** Whether a webContents of this kind may navigate its main frame to `url`. */
export function mayNavigate(kind: ContentsKind, url: string): boolean {
  if (kind !== 'target') return isAppPageUrl(url);
  // Targets are web apps: they move between their own pages (the driver checks origins), but
  // never onto file:, the app protocol, or anything that is not the web.
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** `window.open`, `target=_blank` and the like: never a new window, in any webContents. */
export function windowOpenPolicy(): { action: 'deny' } {
  return { action: 'deny' };
}

type Log = (message: string) => void;

/**
 * Hardens one webContents. `kindOf` is asked at each event, because a window's kind is known
 * only once the code that created it has registered it.
 */
export function hardenWebContents(contents: WebContents, kindOf: (contents: WebContents) => ContentsKind, log: Log = () => {}): void {
  contents.setWindowOpenHandler((details) => {
    log(`refused to open a window for ${details.url}`);
    return windowOpenPolicy();
  });
  const guardNavigation = (event: { preventDefault(): void; url: string }, what: string) => {
    const kind = kindOf(contents);
    if (mayNavigate(kind, event.url)) return;
    event.preventDefault();
    log(`refused a ${what} of a ${kind} window to ${event.url}`);
  };
  contents.on('will-navigate', (event) => guardNavigation(event, 'navigation'));
  contents.on('will-redirect', (event) => guardNavigation(event, 'redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('refused to attach a webview');
  });
}

/**
 * Every permission request and check of `session` is denied (camera, microphone, screen,
 * notifications, clipboard, devices, ...), and downloads are cancelled. Used for the host's
 * session and every target's.
 */
export function lockDownSession(session: Session, log: Log = () => {}): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`denied the permission request "${permission}"`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event, item) => {
    event.preventDefault();
    log(`refused the download of ${item.getURL()}`);
  });
}

/**
 * Whether a host window may request `url` at all: only the app protocol (and inline data).
 * Nothing remote is ever loaded into a host window, whatever the page asks for.
 */
export function hostMayRequest(url: string): boolean {
  return url.startsWith('cutright://app/') || url.startsWith('data:') || url.startsWith('devtools:');
}

/** Cancels every request of the host's session that is not for the app itself. */
export function blockRemoteRequests(session: Session, log: Log = () => {}): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = hostMayRequest(details.url);
    if (!allowed) log(`cancelled a host window's request for ${details.url}`);
    callback({ cancel: !allowed });
  });
}
