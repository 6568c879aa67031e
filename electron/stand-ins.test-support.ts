// Hand-made stand-ins for the few Electron objects the shell's modules take (the Electron
// binary cannot run here, and `import 'electron'` from plain Node tries to download it).
// Each behaves as Electron documents: events are EventEmitter events with Electron's
// argument order, and a destroyed window detaches its debugger and reports 'destroyed'.
import { EventEmitter } from 'node:events';

export type CommandHandler = (params: Record<string, unknown>) => unknown;

/** Shaped like Electron.Debugger: attach/detach/isAttached/sendCommand and 'message'/'detach' events. */
export class DebuggerStandIn extends EventEmitter {
  attachedWith: string | undefined;
  private attached = false;
  readonly commands: { method: string; params: unknown }[] = [];
  readonly handlers = new Map<string, CommandHandler>();

  attach(protocolVersion?: string): void {
    if (this.attached) throw new Error('Debugger is already attached to the target');
    this.attached = true;
    this.attachedWith = protocolVersion;
  }
  isAttached(): boolean {
    return this.attached;
  }
  detach(): void {
    this.attached = false;
  }
  async sendCommand(method: string, params?: Record<string, unknown>): Promise<unknown> {
    if (!this.attached) throw new Error('No target available');
    this.commands.push({ method, params });
    const handler = this.handlers.get(method);
    if (!handler) throw new Error(`'${method}' wasn't found`);
    return handler(params ?? {});
  }
  /** The browser sends an event to the client. */
  event(method: string, params: unknown, sessionId = ''): void {
    this.emit('message', {}, method, params, sessionId);
  }
  /** The browser ends the session. */
  lose(reason: string): void {
    this.attached = false;
    this.emit('detach', {}, reason);
  }
}

type PermissionRequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void;

/** Shaped like the parts of Electron.Session that lockDownSession sets. */
export class SessionStandIn extends EventEmitter {
  requestHandler: PermissionRequestHandler | null = null;
  checkHandler: ((...args: unknown[]) => boolean) | null = null;
  deviceHandler: ((...args: unknown[]) => boolean) | null = null;
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null): void {
    this.checkHandler = handler;
  }
  setDevicePermissionHandler(handler: ((...args: unknown[]) => boolean) | null): void {
    this.deviceHandler = handler;
  }
  /** What a page's permission request gets. */
  request(permission: string): boolean | undefined {
    let answer: boolean | undefined;
    this.requestHandler?.({}, permission, (granted) => (answer = granted), {});
    return answer;
  }
}

let nextContentsId = 100;

/** Shaped like Electron.WebContents as far as the transport and the launcher use it. */
export class WebContentsStandIn extends EventEmitter {
  readonly id = nextContentsId++;
  readonly debugger = new DebuggerStandIn();
  destroyed = false;
  /** The renderer's process id, as getOSProcessId() reports it: a test's own process, else none that can exist. */
  osProcessId = 2 ** 31 - 1;
  constructor(readonly session: SessionStandIn = new SessionStandIn()) {
    super();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getOSProcessId(): number {
    return this.osProcessId;
  }
  /** The page goes away as Electron reports it: the debugger detaches, then the contents are destroyed. */
  destroy(): void {
    if (this.destroyed) return;
    if (this.debugger.isAttached()) this.debugger.lose('target closed');
    this.destroyed = true;
    this.emit('destroyed');
  }
  crash(reason: 'crashed' | 'oom' | 'killed' | 'clean-exit'): void {
    this.emit('render-process-gone', {}, { reason, exitCode: 1 });
  }
}

/** Shaped like Electron.BrowserWindow as far as the target launcher uses it. */
export class BrowserWindowStandIn extends EventEmitter {
  readonly webContents: WebContentsStandIn;
  readonly loaded: string[] = [];
  loadError: Error | undefined;
  constructor(readonly options: Electron.BrowserWindowConstructorOptions) {
    super();
    this.webContents = new WebContentsStandIn();
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    if (this.loadError) throw this.loadError;
  }
  isDestroyed(): boolean {
    return this.webContents.isDestroyed();
  }
  destroy(): void {
    if (this.isDestroyed()) return;
    this.webContents.destroy();
    this.emit('closed');
  }
}
