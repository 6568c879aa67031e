// The per-frame capture-safe rule: a frame (or a step's picture) is kept only when the target
// was `safe` both before and after it was painted. "Before": the gate believed the target safe
// when the frame arrived, and the frame was painted after that safe stretch began (a frame
// painted earlier may show the moment before it). "After": a check of the page that started
// after the frame arrived answers `safe`, and no report of any other state came in between.
// The page answers checks and reports changes on one connection, in order, so a change made
// before the check answered has been heard by then. Anything else drops the frame: frames are
// never blurred or masked.
import type { CaptureState, Dispose } from '../targets/types.js';

export interface CaptureDecision {
  state: CaptureState;
  reason?: string;
}

/**
 * Where the gate learns the target's capture state: `captureState` asks the page now (a round
 * trip); `watchCaptureState`, when the source has it, reports every change as it happens.
 * The CDP driver is one.
 */
export interface CaptureStateSource {
  captureState(): Promise<CaptureDecision>;
  watchCaptureState?(listener: (decision: CaptureDecision) => void): Dispose;
}

export interface FrameGateOptions {
  now?: () => number;
  /** How often to ask the page when the source cannot report changes itself. Default 200 ms. */
  pollMs?: number;
}

export class FrameGate {
  private belief: CaptureDecision = { state: 'unknown', reason: 'not checked yet' };
  /** Bumped at every report that is not `safe`: a frame whose check saw it bump is dropped. */
  private epoch = 0;
  /** When the current safe stretch began (ms since the epoch); frames painted before it are dropped. */
  private safeSince = Number.POSITIVE_INFINITY;
  private inflight: Promise<CaptureDecision> | null = null;
  private queued: Promise<CaptureDecision> | null = null;
  private closed = false;
  private resolveClosed!: (decision: CaptureDecision) => void;
  /** Settles when the gate closes: frames waiting on a check are then dropped at once. */
  private readonly closedSignal = new Promise<CaptureDecision>((resolve) => {
    this.resolveClosed = resolve;
  });
  private readonly listeners = new Set<(decision: CaptureDecision) => void>();
  private readonly disposers: Dispose[] = [];
  private readonly now: () => number;

  constructor(private readonly source: CaptureStateSource, options: FrameGateOptions = {}) {
    this.now = options.now ?? Date.now;
    if (source.watchCaptureState) {
      this.disposers.push(source.watchCaptureState((decision) => this.observe(decision)));
    } else {
      const timer = setInterval(() => void this.checkAfterNow().catch(() => undefined), options.pollMs ?? 200);
      timer.unref();
      this.disposers.push(() => clearInterval(timer));
    }
  }

  /** The gate's current belief about the target. */
  get current(): CaptureDecision {
    return this.belief;
  }

  /** Tells `listener` of every change between safe and not safe; returns its disposer. */
  onChange(listener: (decision: CaptureDecision) => void): Dispose {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes in a report of the target's state (from the watcher, a check, or the page navigating). */
  observe(decision: CaptureDecision): void {
    if (this.closed) return;
    const wasSafe = this.belief.state === 'safe';
    if (decision.state !== 'safe') {
      this.epoch += 1;
      this.safeSince = Number.POSITIVE_INFINITY;
      this.belief = decision;
      if (wasSafe || this.belief.reason !== decision.reason) this.tell(decision);
      return;
    }
    if (!wasSafe) {
      this.belief = decision;
      this.safeSince = this.now();
      this.tell(decision);
    }
  }

  /** Asks the page, in a check that starts after this call (joining one queued behind a check in flight). */
  checkAfterNow(): Promise<CaptureDecision> {
    if (!this.inflight) {
      const run = this.source.captureState().then(
        (decision) => {
          this.observe(decision);
          return decision;
        },
        (error: unknown): CaptureDecision => {
          const decision: CaptureDecision = { state: 'unknown', reason: `the capture check failed: ${(error as Error).message}` };
          this.observe(decision);
          return decision;
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
    for (const dispose of this.disposers.splice(0)) dispose();
    this.listeners.clear();
  }

  private tell(decision: CaptureDecision): void {
    for (const listener of [...this.listeners]) listener(decision);
  }
}
