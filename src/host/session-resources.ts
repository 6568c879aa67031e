// What one session opens, and how each is opened and let go: its bundle (made at Allow, sealed
// at the end), its target page, the driver attached to it and the capture of the page (the
// frame gate and the recorder, session-capture.ts). The Session runs these as its machine's effects.
import type { EndState } from '../contract/end-state.js';
import { diskProblemOf, type BundleStore, type ConsentInfo, type SessionBundle } from '../bundle/index.js';
import { PermissionMissingError, SessionFailure } from '../session/machine.js';
import type { OpenedTarget, TargetCloseReason, TargetDriver, TargetLauncher } from '../targets/types.js';
import type { AppEntry } from '../settings/settings.js';
import { SessionCapture, type CaptureDeps } from './session-capture.js';

/** Makes a driver for an opened target; the shells pass the CDP driver. */
export type DriverFactory = (target: OpenedTarget, app: AppEntry) => Promise<TargetDriver>;

export interface ResourceDeps {
  bundles: BundleStore;
  launcher: TargetLauncher;
  createDriver: DriverFactory;
  now: () => number;
  log: (message: string) => void;
  capture: CaptureDeps;
}

export class SessionResources {
  /** The open bundle, once made. */
  bundle: SessionBundle | null = null;
  /** The driver, once armed; null again once detached. */
  driver: TargetDriver | null = null;
  /** The capture of the target: live from arming until detach. */
  readonly capture: SessionCapture;
  private bundleCreating: Promise<SessionBundle> | null = null;
  private target: OpenedTarget | null = null;
  private closingTarget: Promise<void> = Promise.resolve();

  constructor(
    sessionId: string,
    private readonly app: AppEntry,
    private readonly deps: ResourceDeps,
    /** Told when what the UI shows of the capture changes. */
    changed: () => void,
  ) {
    this.capture = new SessionCapture(sessionId, { ...deps.capture, now: deps.now, log: deps.log }, changed);
  }

  /** Settles once the page is closed (after detach). */
  get targetClosed(): Promise<void> {
    return this.closingTarget;
  }

  /** Creates the bundle with its consent record; a failure names the disk problem (SessionFailure). */
  async openBundle(consent: ConsentInfo): Promise<SessionBundle> {
    this.bundleCreating = this.deps.bundles.create(consent);
    try {
      this.bundle = await this.bundleCreating;
      return this.bundle;
    } catch (error) {
      const problem = diskProblemOf(error) ?? 'data folder unwritable';
      this.deps.log(`no bundle for ${consent.sessionId}: ${(error as Error).message}`);
      throw new SessionFailure(problem, `the host cannot record it (${problem}: ${(error as Error).message}); free space or fix the data folder's permissions, then request a new session`);
    }
  }

  /** Opens the target and attaches the driver; `gone` is told if the page later goes away by itself. */
  async arm(signal: AbortSignal, gone: (reason: TargetCloseReason) => void): Promise<void> {
    const target = await this.openTarget();
    if (signal.aborted) return void (await target.close().catch(() => {}));
    // Kept before the driver exists, so a kill while the driver is made still closes the page.
    this.target = target;
    const driver = await this.deps.createDriver(target, this.app);
    // A kill while the driver was being made has already closed the target: let the driver go too.
    if (signal.aborted) return void (await driver.close().catch(() => {}));
    this.driver = driver;
    // Capture starts with the session armed, off the act path (frames never wait on an act, nor acts on frames).
    this.capture.start(driver, target.transport, this.bundle?.recording);
    void driver.closed.then(gone);
  }

  private async openTarget(): Promise<OpenedTarget> {
    try {
      return await this.deps.launcher.open(this.app.url);
    } catch (error) {
      // A missing permission (macOS Accessibility or Screen Recording, the web shell's browser)
      // already names itself and its fix: the session waits, saying so, until it is ended.
      if (error instanceof PermissionMissingError) throw error;
      // Anything else (the page did not load): the session ends at once, killed, saying why.
      const why = ((error as Error).message ?? String(error)).split('\n')[0];
      throw new SessionFailure('target could not open', `${this.app.name} could not be opened at ${this.app.url}: ${why}`);
    }
  }

  /**
   * Lets the driver and the page go. Not waited for: closing a page can take a while and
   * records nothing, so the bundle is sealed meanwhile (`targetClosed` settles when it is
   * done). No input reaches the page after a kill whatever this does: the kill signal and the
   * call guard stop the steps.
   */
  detach(): void {
    const driver = this.driver;
    const target = this.target;
    this.driver = null;
    this.target = null;
    // At once, before anything is awaited: no frame is kept or shown after the end.
    const captureStopped = this.capture.stop();
    this.closingTarget = (async () => {
      await captureStopped;
      await driver?.close().catch(() => {});
      await target?.close().catch(() => {});
    })();
  }

  /** Records the end and seals the bundle; a kill while it was being made still seals it. */
  async seal(outcome: EndState, reason: string): Promise<void> {
    const bundle = this.bundle ?? (await this.bundleCreating?.catch(() => null)) ?? null;
    if (!bundle) return;
    if (outcome === 'complete') await bundle.recordCall({ method: 'demo.end', ok: true, at: this.deps.now() });
    await bundle.seal(outcome, reason);
  }
}
