// A target without Chromium, for the tests of the Session and the method handlers, where the
// page is not the thing under test (the CDP driver has its own tests against a real Chromium,
// and the conformance, consent and kill race tests drive the real driver). A ScriptedDriver
// holds a list of controls, acts on them by the driver's rules (the node must still be there
// with its role and label; nothing runs on a target that is not capture-safe) and can hold an
// act mid-way, as a slow page would, so a kill can land during it.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ToolError } from '../contract/errors.js';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { openBundleStore, type BundleStore } from '../bundle/index.js';
import type { CallContext } from '../service/server.js';
import { SettingsStore } from '../settings/settings-store.js';
import type { ActInput, ActOutcome, CaptureListener, CaptureState, CaptureStatus, CdpTransport, DriverElement, DriverSnapshot, OpenedTarget, TargetCloseReason, TargetDriver, TargetLauncher } from '../targets/types.js';
import type { AppEntry } from '../settings/settings.js';
import type { HostView, RequesterView } from '../ui-protocol/index.js';
import { createHost, type Host, type HostOptions } from './host.js';

/** A JPEG as far as the bundle checks one (its magic bytes). */
export const TINY_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]);

export const SCRIPTED_ELEMENTS: readonly DriverElement[] = [
  { nodeKey: 'n1', role: 'textbox', label: 'Name', ops: ['click', 'type', 'press'], secure: false },
  { nodeKey: 'n2', role: 'textbox', label: 'Password', ops: ['click', 'type', 'press'], secure: true },
  { nodeKey: 'n3', role: 'button', label: 'Submit', ops: ['click'], secure: false },
  { nodeKey: 'n4', role: 'checkbox', label: 'Subscribe', ops: ['click'], secure: false },
];

/** No CDP here: the scripted driver never sends anything. */
const noTransport: CdpTransport = {
  send: () => Promise.reject(new Error('a scripted target has no CDP connection')),
  on: () => () => {},
  closed: new Promise(() => {}),
};

/** Open until `close()`; what passes waits while it is closed, until the function `close` returned is called. */
class Gate {
  private waiting: Promise<void> | null = null;

  get closed(): boolean {
    return this.waiting !== null;
  }

  close(): () => void {
    let open!: () => void;
    this.waiting = new Promise((resolve) => (open = resolve));
    return () => {
      this.waiting = null;
      open();
    };
  }

  async passed(): Promise<void> {
    if (this.waiting) await this.waiting;
  }
}

export class ScriptedDriver implements TargetDriver {
  elements: DriverElement[] = SCRIPTED_ELEMENTS.map((element) => ({ ...element, ops: [...element.ops] }));
  /** Who watches the capture state (the host's capture watch, the recorder). */
  private readonly captureListeners = new Set<CaptureListener>();
  private captureNow: CaptureState = 'safe';
  /** Why the target is not capture-safe, when a test wants a page's own words. */
  captureReason: string | null = null;
  /** Every act that reached the page, in order. */
  readonly acts: ActInput[] = [];
  /** Called when an act reaches the page (to change the page, as Go private does). */
  onAct: ((input: ActInput) => void) | null = null;
  /** Where a click act says it pressed (ActOutcome.point), when set. */
  clickPoint: { x: number; y: number } | null = null;
  /** Makes screenshots fail, as a page that went away would. */
  screenshotFails = false;
  closedByHost = false;
  /** Acts waiting mid-way behind `hold`. */
  held = 0;
  readonly closed: Promise<TargetCloseReason>;
  private goAwayWith!: (reason: TargetCloseReason) => void;
  private readonly gate = new Gate();

  constructor() {
    this.closed = new Promise((resolve) => (this.goAwayWith = resolve));
  }

  /** Later acts wait, mid-way, until the returned function is called. */
  hold(): () => void {
    return this.gate.close();
  }

  /** The page goes away by itself (closed by the person, or crashed). */
  goAway(reason: TargetCloseReason): void {
    this.goAwayWith(reason);
  }

  async snapshot(): Promise<DriverSnapshot> {
    return { captureState: this.capture, elements: this.capture === 'safe' ? this.elements.map((e) => ({ ...e })) : [], truncated: false };
  }

  /** The page's capture state; setting it tells every watcher, as the real driver's watch does. */
  get capture(): CaptureState {
    return this.captureNow;
  }

  set capture(state: CaptureState) {
    if (state === this.captureNow) return;
    this.captureNow = state;
    for (const listener of this.captureListeners) listener(this.status());
  }

  async captureState(): Promise<CaptureStatus> {
    return this.status();
  }

  watchCaptureState(listener: CaptureListener): () => void {
    this.captureListeners.add(listener);
    queueMicrotask(() => {
      if (this.captureListeners.has(listener)) listener(this.status());
    });
    return () => this.captureListeners.delete(listener);
  }

  private status(): CaptureStatus {
    return this.captureNow === 'safe' ? { state: 'safe' } : { state: this.captureNow, reason: this.captureReason ?? `the scripted page is ${this.captureNow}` };
  }

  async act(input: ActInput, expect: { role: string; label: string }): Promise<ActOutcome> {
    if (this.capture !== 'safe') throw new ToolError('capture_unsafe', `the target is not capture-safe (${this.capture})`);
    const element = this.elements.find((e) => e.nodeKey === input.nodeKey);
    if (!element || element.role !== expect.role || element.label !== expect.label) {
      throw new ToolError('invalid_arguments', `the element ${expect.role} "${expect.label}" is gone; take a new snapshot`);
    }
    if (this.gate.closed) {
      this.held += 1;
      await this.gate.passed();
      this.held -= 1;
    }
    this.acts.push(input);
    this.onAct?.(input);
    const point = input.op !== 'press' && this.clickPoint ? { point: { ...this.clickPoint } } : {};
    return { role: element.role, label: element.label, ...point };
  }

  async screenshot(): Promise<{ mime: string; data: Buffer }> {
    if (this.capture !== 'safe') throw new ToolError('capture_unsafe', 'no picture of a target that is not capture-safe');
    if (this.screenshotFails) throw new Error('the page is gone');
    return { mime: 'image/jpeg', data: TINY_JPEG };
  }

  async close(): Promise<void> {
    this.closedByHost = true;
  }
}

/** Opens scripted targets; can fail or hold its opens. */
export class ScriptedLauncher implements TargetLauncher {
  readonly drivers: ScriptedDriver[] = [];
  /** When set, open fails with it. */
  failure: Error | null = null;
  closedPages = 0;
  private readonly driverOfTarget = new WeakMap<OpenedTarget, ScriptedDriver>();
  private readonly gate = new Gate();

  /** Later opens wait until the returned function is called. */
  hold(): () => void {
    return this.gate.close();
  }

  async open(_url: string): Promise<OpenedTarget> {
    await this.gate.passed();
    if (this.failure) throw this.failure;
    const driver = new ScriptedDriver();
    this.drivers.push(driver);
    const target: OpenedTarget = {
      transport: noTransport,
      close: async () => {
        this.closedPages += 1;
      },
    };
    this.driverOfTarget.set(target, driver);
    return target;
  }

  /** The driver factory a host is given: the scripted driver of the target opened. */
  readonly createDriver = async (target: OpenedTarget): Promise<TargetDriver> => {
    const driver = this.driverOfTarget.get(target);
    if (!driver) throw new Error('not a target of this launcher');
    return driver;
  };

  get last(): ScriptedDriver {
    const driver = this.drivers.at(-1);
    if (!driver) throw new Error('no target was opened yet');
    return driver;
  }

  async close(): Promise<void> {}
}

/** The requester of a session made directly in a test: this process. */
export const THIS_PROCESS: RequesterView = { pid: process.pid, executable: process.execPath, otherUser: null, sharedWith: 0, unknown: null };

export const SCRIPTED_APP: AppEntry = { id: FIXTURE_APP_ID, name: 'Demo Fixture', url: 'http://127.0.0.1:9/', allowedOrigins: ['http://127.0.0.1:9'] };

/** A connection as the service gives each call: its disconnect signal. */
export function connection(): { call: CallContext; disconnect: () => void } {
  const controller = new AbortController();
  // This very process is the peer: what the socket's credentials would say of it.
  const requester = { pid: process.pid, executable: process.execPath, uid: process.getuid?.() ?? null, user: null, sameUser: true, sharedWith: 0, unknownReason: null };
  return { call: { disconnected: controller.signal, requester: async () => requester }, disconnect: () => controller.abort() };
}

export interface ScriptedHost {
  host: Host;
  launcher: ScriptedLauncher;
  bundles: BundleStore;
  settings: SettingsStore;
  dataDir: string;
  views: HostView[];
  /** The view as last published. */
  view(): HostView;
  cleanup(): Promise<void>;
}

/** A real host (real settings, real bundles on disk, real registry) over scripted targets. */
export async function startScriptedHost(overrides: Partial<HostOptions> = {}): Promise<ScriptedHost> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-host-'));
  const settings = await SettingsStore.open(dataDir, [FIXTURE_APP_ID]);
  const bundles = await openBundleStore({ dataDir });
  const launcher = new ScriptedLauncher();
  const host = createHost({
    settings,
    bundles,
    launcher,
    createDriver: launcher.createDriver,
    fixture: SCRIPTED_APP,
    answeredBy: 'host test',
    ...overrides,
  });
  const views: HostView[] = [];
  host.bridge.subscribe((view) => views.push(view));
  return {
    host,
    launcher,
    bundles,
    settings,
    dataDir,
    views,
    view: () => views.at(-1) ?? host.view(),
    async cleanup() {
      await host.shutdown();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `probe` returns something, polling each event-loop turn. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
