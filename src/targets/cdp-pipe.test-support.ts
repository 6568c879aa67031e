// A real Chromium spoken to over `--remote-debugging-pipe` (raw CDP, flat sessions), with
// page handles shaped like Electron's `webContents` and its `debugger`: `sendCommand(method,
// params, sessionId)` and `message` events carrying the session id. It lets the Electron
// shell's debugger transport be checked against a real browser where no Electron binary can
// run. Test support only.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM_ARGS, findBrowser } from './chromium-launcher.js';

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message?: string };
  sessionId?: string;
}

/** Shaped like Electron.Debugger for one page: its own session is the one without an id. */
export class PipeDebugger extends EventEmitter {
  private attached = false;

  constructor(
    private readonly browser: PipeBrowser,
    readonly pageSession: string,
  ) {
    super();
  }

  attach(): void {
    if (this.attached) throw new Error('Debugger is already attached to the target');
    this.attached = true;
  }
  isAttached(): boolean {
    return this.attached;
  }
  detach(): void {
    this.attached = false;
  }
  sendCommand(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<unknown> {
    if (!this.attached) return Promise.reject(new Error('No target available'));
    return this.browser.send(method, params ?? {}, sessionId || this.pageSession);
  }
}

/** Shaped like Electron.WebContents as far as the debugger transport uses it. */
export class PipeContents extends EventEmitter {
  destroyed = false;
  // `debugger` is a reserved word: no parameter property of that name.
  readonly debugger: PipeDebugger;
  constructor(dbg: PipeDebugger) {
    super();
    this.debugger = dbg;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export interface PipePage {
  contents: PipeContents;
  /** Navigates the page and waits for its load event. */
  goto(url: string): Promise<void>;
  close(): Promise<void>;
}

export class PipeBrowser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; method: string }>();
  /** Which page each session (the page's own and every child's, however nested) belongs to. */
  private readonly owner = new Map<string, PipeDebugger>();
  private buffer = '';

  private constructor(
    private readonly process: ChildProcess,
    private readonly profile: string,
  ) {
    const output = process.stdio[4] as Readable;
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        const raw = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 1);
        this.dispatch(JSON.parse(raw) as Message);
      }
    });
  }

  static async launch(): Promise<PipeBrowser> {
    const found = findBrowser();
    if (!found.path) throw new Error(`no browser: tried ${found.tried.join(', ')}`);
    const profile = await mkdtemp(join(tmpdir(), 'cutright-pipe-'));
    const child = spawn(found.path, [...CHROMIUM_ARGS, '--headless', '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
    });
    return new PipeBrowser(child, profile);
  }

  send(method: string, params: Record<string, unknown>, sessionId?: string): Promise<unknown> {
    const id = this.nextId++;
    const message: Message = { id, method, params, ...(sessionId ? { sessionId } : {}) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      (this.process.stdio[3] as Writable).write(JSON.stringify(message) + '\0');
    });
  }

  private dispatch(message: Message): void {
    if (typeof message.id === 'number') {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(`${waiting.method}: ${message.error.message ?? 'protocol error'}`));
      else waiting?.resolve(message.result ?? {});
      return;
    }
    if (!message.method || !message.sessionId) return;
    const page = this.owner.get(message.sessionId);
    if (!page) return;
    if (message.method === 'Target.attachedToTarget') {
      const child = message.params?.['sessionId'];
      if (typeof child === 'string') this.owner.set(child, page);
    }
    // As Electron reports it: the page's own events without a session id, a child's with its id.
    const sessionId = message.sessionId === page.pageSession ? '' : message.sessionId;
    page.emit('message', {}, message.method, message.params ?? {}, sessionId);
  }

  async newPage(): Promise<PipePage> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const dbg = new PipeDebugger(this, sessionId);
    this.owner.set(sessionId, dbg);
    const contents = new PipeContents(dbg);
    return {
      contents,
      goto: async (url: string) => {
        await this.send('Page.enable', {}, sessionId);
        const loaded = new Promise<void>((resolve) => {
          const onMessage = (_event: unknown, method: string, _params: unknown, from: string) => {
            if (method !== 'Page.loadEventFired' || from) return;
            dbg.off('message', onMessage);
            resolve();
          };
          dbg.on('message', onMessage);
        });
        await this.send('Page.navigate', { url }, sessionId);
        await loaded;
      },
      close: async () => {
        await this.send('Target.closeTarget', { targetId }).catch(() => undefined);
        dbg.emit('detach', {}, 'target closed');
        contents.destroyed = true;
        contents.emit('destroyed');
      },
    };
  }

  async close(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = new Promise((resolve) => this.process.once('exit', resolve));
      // The browser may exit before it answers: wait for the exit, not the answer.
      this.send('Browser.close', {}).catch(() => undefined);
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.profile, { recursive: true, force: true });
  }
}
