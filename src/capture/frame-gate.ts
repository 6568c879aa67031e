// The per-frame capture-safe rule: a frame (or a step's picture) is kept only when the target
// was `safe` both before and after it was painted. "Before": the gate believed the target safe
// when the frame arrived, and the frame was painted after that safe stretch began (a frame
// painted earlier may show the moment before it). "After": a check of the page that started
// after the frame arrived answers `safe`, and no report of any other state came in between.
// What the gate believes comes from the driver's capture watch (the page agent's observer
// reporting through a binding, re-checked on navigation and by the driver's poll); the check
// after each frame is the driver's own `captureState`. The page answers checks and reports
// changes on one connection, in order, so a change made before the check answered has been
// heard by then. Anything else drops the frame: frames are never blurred or masked.
import type { CaptureStatus, Dispose, TargetDriver } from '../targets/types.js';

/** Where the gate learns the target's capture state: the driver's check and its watch. */
export type CaptureSource = Pick<TargetDriver, 'captureState' | 'watchCaptureState'>;

export interface FrameGateOptions {
  now?: () => number;
}

export class FrameGate {
  private belief: CaptureStatus = { state: 'unknown', reason: 'not checked yet' };
  /** Whether the page has been heard from at all (by the watch or a check). */
  private heard = false;
  /** Bumped at every report that is not `safe`: a frame whose check saw it bump is dropped. */
  private epoch = 0;
  /** When the current safe stretch began (ms since the epoch); frames painted before it are dropped. */
  private safeSince = Number.POSITIVE_INFINITY;
  private inflight: Promise<CaptureStatus> | null = null;
  private queued: Promise<CaptureStatus> | null = null;
  private closed = false;
  private resolveClosed!: (status: CaptureStatus) => void;
  /** Settles when the gate closes: frames waiting on a check are then dropped at once. */
  private readonly closedSignal = new Promise<CaptureStatus>((resolve) => {
    this.resolveClosed = resolve;
  });
  private readonly listeners = new Set<(status: CaptureStatus) => void>();
  private readonly stopWatching: Dispose;
  private readonly now: () => number;

  constructor(private readonly source: CaptureSource, options: FrameGateOptions = {}) {
    this.now = options.now ?? Date.now;
    this.stopWatching = source.watchCaptureState((status) => this.observe(status));
  }

  /** The gate's current belief about the target; null until the page has been heard from. */
  get current(): CaptureStatus | null {
    return this.heard ? this.belief : null;
  }

  /** Tells `listener` of every change of the belief (a reason that changes counts); returns its disposer. */
  onChange(listener: (status: CaptureStatus) => void): Dispose {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes in a report of the target's state (from the watch or a check). */
  private observe(status: CaptureStatus): void {
    if (this.closed) return;
    const wasSafe = this.belief.state === 'safe';
    const first = !this.heard;
    this.heard = true;
    if (status.state !== 'safe') {
      this.epoch += 1;
      this.safeSince = Number.POSITIVE_INFINITY;
      const changed = first || wasSafe || this.belief.state !== status.state || this.belief.reason !== status.reason;
      this.belief = status;
      if (changed) this.tell(status);
      return;
    }
    if (!wasSafe) {
      this.belief = status;
      this.safeSince = this.now();
      this.tell(status);
    }
  }

  /** Asks the page, in a check that starts after this call (joining one queued behind a check in flight). */
  private checkAfterNow(): Promise<CaptureStatus> {
    if (!this.inflight) {
      const run = this.source.captureState().then(
        (status) => {
          this.observe(status);
          return status;
        },
        (error: unknown): CaptureStatus => {
          const status: CaptureStatus = { state: 'unknown', reason: `the capture check failed: ${(error as Error).message}` };
          this.observe(status);
          return status;
        },
      );
      this.inflight = run.finally(() => {
        this.inflight = null;
      });
      return this.inflight;
    }
    this.queued ??= this.inflight.then(() => {
      this.queued = null;
      return this.checkAfterNow();
    });
    return this.queued;
  }

  /**
   * Whether a frame painted at `paintedAt` (ms since the epoch, when the browser says) may be
   * kept: safe before it was painted and after. Resolves false, never throws.
   */
  async admit(paintedAt: number | undefined): Promise<boolean> {
    if (this.closed || this.belief.state !== 'safe') return false;
    if (paintedAt !== undefined && !(paintedAt >= this.safeSince)) return false;
    const epoch = this.epoch;
    const after = await Promise.race([this.checkAfterNow(), this.closedSignal]);
    return !this.closed && after.state === 'safe' && this.epoch === epoch && this.belief.state === 'safe';
  }

  /**
   * Takes a still picture (`take`) under the same rule: safe when it starts, safe in a check
   * after it was taken, nothing else reported in between. Resolves null when it may not be kept.
   */
  async vouch<T>(take: () => Promise<T>): Promise<T | null> {
    if (this.closed) return null;
    if (this.belief.state !== 'safe') await Promise.race([this.checkAfterNow(), this.closedSignal]);
    if (this.closed || this.belief.state !== 'safe') return null;
    const epoch = this.epoch;
    const taken = await take();
    const after = await Promise.race([this.checkAfterNow(), this.closedSignal]);
    return !this.closed && after.state === 'safe' && this.epoch === epoch ? taken : null;
  }

  /** Stops watching; every frame still waiting is dropped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.epoch += 1;
    this.resolveClosed({ state: 'unknown', reason: 'capture stopped' });
    this.stopWatching();
    this.listeners.clear();
  }

  private tell(status: CaptureStatus): void {
    for (const listener of [...this.listeners]) listener(status);
  }
}
