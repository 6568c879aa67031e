import { EventEmitter } from 'node:events';
import type { Session, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { blockRemoteRequests, hardenWebContents, hostMayRequest, lockDownSession, mayNavigate, windowOpenPolicy, type ContentsKind } from './security.js';

describe('navigation policy', () => {
  it('lets host windows show only the app page', () => {
    expect(mayNavigate('host', 'cutright://app/index.html?window=main#main')).toBe(true);
    for (const url of ['https://example.com/', 'cutright://app/other.html', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'about:blank', 'not a url']) {
      expect(mayNavigate('host', url), url).toBe(false);
    }
  });

  it('treats unknown webContents (devtools, anything unregistered) like host windows', () => {
    expect(mayNavigate('other', 'https://example.com/')).toBe(false);
    expect(mayNavigate('other', 'cutright://app/index.html')).toBe(true);
  });

  it('lets targets move on the web only', () => {
    expect(mayNavigate('target', 'https://example.com/next')).toBe(true);
    expect(mayNavigate('target', 'http://127.0.0.1:8080/')).toBe(true);
    for (const url of ['cutright://app/index.html', 'file:///etc/passwd', 'javascript:alert(1)', 'chrome://settings', 'devtools://devtools/x']) {
      expect(mayNavigate('target', url), url).toBe(false);
    }
  });

  it('denies every new window', () => {
    expect(windowOpenPolicy()).toEqual({ action: 'deny' });
  });

  it('lets host windows request only the app itself', () => {
    expect(hostMayRequest('cutright://app/assets/index.js')).toBe(true);
    expect(hostMayRequest('https://cdn.example/x.js')).toBe(false);
    expect(hostMayRequest('ws://127.0.0.1:9/')).toBe(false);
    expect(hostMayRequest('file:///etc/hosts')).toBe(false);
    expect(hostMayRequest('cutright://apple/x')).toBe(false);
  });
});

/** A webContents as far as hardenWebContents uses it: its events and its window-open handler. */
class ContentsStandIn extends EventEmitter {
  readonly id = 7;
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  /** Emits like Electron: an event object with preventDefault, then the legacy arguments. */
  fire(name: string, url?: string): boolean {
    let prevented = false;
    this.emit(name, { url, preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

describe('hardenWebContents', () => {
  function harden(kind: ContentsKind) {
    const contents = new ContentsStandIn();
    const log: string[] = [];
    hardenWebContents(contents as unknown as WebContents, () => kind, (m) => log.push(m));
    return { contents, log };
  }

  it('refuses window.open in every webContents', () => {
    for (const kind of ['host', 'target', 'other'] as const) {
      const { contents, log } = harden(kind);
      expect(contents.openHandler?.({ url: 'https://example.com/popup' })).toEqual({ action: 'deny' });
      expect(log[0]).toMatch(/refused to open a window for https:\/\/example.com\/popup/);
    }
  });

  it('prevents a host window from navigating or being redirected away from the app page', () => {
    const { contents, log } = harden('host');
    expect(contents.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-navigate', 'cutright://app/index.html?window=main')).toBe(false);
    expect(log).toHaveLength(2);
  });

  it('lets a target follow web links but not leave the web', () => {
    const { contents } = harden('target');
    expect(contents.fire('will-navigate', 'https://example.com/page2')).toBe(false);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-redirect', 'cutright://app/index.html')).toBe(true);
  });

  it('asks for the kind at each event (a window is registered after it is created)', () => {
    const contents = new ContentsStandIn();
    let kind: ContentsKind = 'other';
    hardenWebContents(contents as unknown as WebContents, () => kind);
    expect(contents.fire('will-navigate', 'https://example.com/')).toBe(true);
    kind = 'target';
    expect(contents.fire('will-navigate', 'https://example.com/')).toBe(false);
  });

  it('prevents every webview from attaching', () => {
    for (const kind of ['host', 'target'] as const) expect(harden(kind).contents.fire('will-attach-webview')).toBe(true);
  });
});

describe('lockDownSession', () => {
  function lockedSession() {
    const session = new (class extends EventEmitter {
      request?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void;
      check?: (...args: unknown[]) => boolean;
      device?: (...args: unknown[]) => boolean;
      beforeRequest?: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void;
      setPermissionRequestHandler(handler: typeof this.request) {
        this.request = handler;
      }
      setPermissionCheckHandler(handler: typeof this.check) {
        this.check = handler;
      }
      setDevicePermissionHandler(handler: typeof this.device) {
        this.device = handler;
      }
      webRequest = {
        onBeforeRequest: (handler: typeof this.beforeRequest) => {
          this.beforeRequest = handler;
        },
      };
    })();
    return session;
  }

  it('denies every permission request and check, and every device', () => {
    const session = lockedSession();
    const log: string[] = [];
    lockDownSession(session as unknown as Session, (m) => log.push(m));
    for (const permission of ['media', 'display-capture', 'notifications', 'clipboard-read', 'geolocation', 'openExternal', 'fullscreen']) {
      let answer: boolean | undefined;
      session.request?.({}, permission, (granted) => (answer = granted));
      expect(answer, permission).toBe(false);
      expect(session.check?.({}, permission, 'https://example.com', {})).toBe(false);
    }
    expect(session.device?.({ deviceType: 'usb' })).toBe(false);
    expect(log[0]).toMatch(/denied the permission request "media"/);
  });

  it('cancels downloads', () => {
    const session = lockedSession();
    lockDownSession(session as unknown as Session);
    let prevented = false;
    session.emit('will-download', { preventDefault: () => (prevented = true) }, { getURL: () => 'https://example.com/file.zip' });
    expect(prevented).toBe(true);
  });

  it('cancels a host window request for anything but the app', () => {
    const session = lockedSession();
    blockRemoteRequests(session as unknown as Session);
    const answers: boolean[] = [];
    session.beforeRequest?.({ url: 'https://cdn.example/x.js' }, ({ cancel }) => answers.push(cancel));
    session.beforeRequest?.({ url: 'cutright://app/assets/x.js' }, ({ cancel }) => answers.push(cancel));
    expect(answers).toEqual([true, false]);
  });
});
