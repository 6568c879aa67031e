// The driver's side of the capture-safe rule (policy/capture-safe.ts): asking the top page for
// its declaration, and watching it change. The watch hears a change of the declaration as it
// happens: the agent's MutationObserver reports through a CDP binding that exists only in the
// agent's isolated world (`Runtime.addBinding`), and the driver re-checks at once on a new
// document, a frame attached or detached, and every `pollMs` as a safety net (a page that hangs
// cannot report, and then is `unknown`).
import { decideCaptureState, type CaptureDecision } from '../policy/capture-safe.js';
import { WORLD_NAME, type AgentFrames } from './agent-frames.js';
import { CAPTURE_BINDING, type CaptureReport, type PageCapture } from './page-agent/protocol.js';
import type { CaptureListener, CdpTransport, Dispose } from './types.js';

export interface CaptureCheckOptions {
  allowedOrigins: readonly string[];
  /** How long the page has to answer. */
  timeoutMs: number;
  /** True once the driver is closed or the target gone. */
  detached(): boolean;
}

/** Applies the capture-safe rule to what the top page answers. */
export class CaptureCheck {
  constructor(
    private readonly frames: AgentFrames,
    private readonly options: CaptureCheckOptions,
  ) {}

  decide(capture: PageCapture): CaptureDecision {
    return decideCaptureState({
      attached: !this.options.detached(),
      answered: true,
      origin: capture.origin,
      declared: capture.declared,
      allowedOrigins: this.options.allowedOrigins,
    });
  }

  /** The decision when the page did not answer (or the driver is no longer attached). */
  unanswered(error: unknown): CaptureDecision {
    const { allowedOrigins } = this.options;
    if (this.options.detached()) return decideCaptureState({ attached: false, answered: false, allowedOrigins });
    const failure = error instanceof Error ? error.message : String(error);
    return decideCaptureState({ attached: true, answered: false, allowedOrigins, failure });
  }

  async current(): Promise<CaptureDecision> {
    if (this.options.detached()) return this.unanswered(undefined);
    try {
      return this.decide(await this.frames.call<PageCapture>(this.frames.top, 'capture', [], this.options.timeoutMs));
    } catch (error) {
      return this.unanswered(error);
    }
  }
}

interface BindingCalled {
  name?: string;
  payload?: string;
}

function isBindingMissing(error: unknown): boolean {
  return String(error instanceof Error ? error.message : error).includes(`${CAPTURE_BINDING} binding is missing`);
}

function sameDecision(a: CaptureDecision | undefined, b: CaptureDecision): boolean {
  return a !== undefined && a.state === b.state && a.reason === b.reason;
}

/** Watches the top page's capture state for any number of listeners (one watch for all). */
export class CaptureWatch {
  private readonly listeners = new Set<CaptureListener>();
  private readonly disposers: Dispose[] = [];
  private last: CaptureDecision | undefined;
  /** The newest report applied: a report of the same world with a lower seq is stale. */
  private latest: { worldId: string; seq: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  /**
   * The world (by the agent's id) the binding was last added in. Not by context id: after a
   * cross-site navigation the page has a new process, whose context ids start over.
   */
  private boundWorld: string | undefined;
  /** Set once the driver is closed or the target gone: what late listeners hear. */
  private ended: CaptureDecision | undefined;

  constructor(
    private readonly transport: CdpTransport,
    private readonly frames: AgentFrames,
    private readonly check: CaptureCheck,
    private readonly options: { pollMs: number; timeoutMs: number },
  ) {}

  /** Adds a listener: it hears the current state once known, then every change. */
  watch(listener: CaptureListener): Dispose {
    const ended = this.ended;
    if (ended) {
      queueMicrotask(() => this.tell(listener, ended));
      return () => undefined;
    }
    this.listeners.add(listener);
    if (this.listeners.size === 1 && this.disposers.length === 0) this.start();
    else if (this.last) {
      const now = this.last;
      queueMicrotask(() => {
        if (this.listeners.has(listener)) this.tell(listener, now);
      });
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.pause();
    };
  }

  /** The driver closed or the target went away (`why`): say so once, then stop for good. */
  end(why: string): void {
    if (this.ended) return;
    this.ended = { state: 'unknown', reason: why };
    this.emit(this.ended);
    this.pause();
    this.listeners.clear();
  }

  private start(): void {
    const { transport } = this;
    this.disposers.push(
      transport.on('Runtime.bindingCalled', (params) => this.onBinding(params as BindingCalled)),
      // Registered after the driver's own listener, which forgets the old document's worlds first.
      transport.on('Page.frameNavigated', (params) => {
        const frame = (params as { frame?: { parentId?: string } } | undefined)?.frame;
        if (frame && !frame.parentId) {
          // A new document has declared nothing yet: not safe until its agent answers.
          this.emit({ state: 'unknown', reason: 'the page is loading a new document' });
        }
        this.recheck();
      }),
      transport.on('Page.navigatedWithinDocument', () => this.recheck()),
      transport.on('Page.frameAttached', () => this.recheck()),
      transport.on('Page.frameDetached', () => this.recheck()),
    );
    this.recheck();
    this.schedulePoll();
  }

  private pause(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.last = undefined;
    this.latest = undefined;
    this.boundWorld = undefined;
  }

  private schedulePoll(): void {
    this.timer = setTimeout(() => {
      this.recheck();
      if (this.disposers.length > 0) this.schedulePoll();
    }, this.options.pollMs);
    this.timer.unref?.();
  }

  private onBinding(params: BindingCalled): void {
    if (params?.name !== CAPTURE_BINDING || typeof params.payload !== 'string') return;
    let report: CaptureReport;
    try {
      report = JSON.parse(params.payload) as CaptureReport;
    } catch {
      return;
    }
    this.apply(report);
  }

  private apply(report: CaptureReport): void {
    // Only the top document's agent reports; an older document's late report is ignored.
    if (!report || typeof report.worldId !== 'string' || !this.frames.isTopWorld(report.worldId)) return;
    if (this.latest && this.latest.worldId === report.worldId && this.latest.seq >= report.seq) return;
    this.latest = { worldId: report.worldId, seq: report.seq };
    this.emit(this.check.decide(report.capture));
  }

  /** Asks the top page now (installing the observer in a new document), and reports a change. */
  private recheck(): void {
    if (this.disposers.length === 0) return;
    this.ask().then(
      (report) => this.apply(report),
      (error: unknown) => {
        if (this.disposers.length === 0) return;
        this.emit(this.check.unanswered(error));
        // A document being replaced (a new process, for another site) can outrun the calls
        // above: ask again soon rather than at the next poll.
        if (isBindingMissing(error)) setTimeout(() => this.recheck(), 50).unref?.();
      },
    );
  }

  private async ask(): Promise<CaptureReport> {
    const { frames } = this;
    for (let attempt = 1; ; attempt++) {
      const world = await frames.ensureWorld(frames.top);
      if (world.worldId !== this.boundWorld) {
        // Exposed only in worlds named as the agent's (the page's own scripts never see it),
        // and only in those that exist now: Chromium adds it to later worlds only while the
        // Runtime domain is enabled, which the driver does not pay for.
        await this.transport.send('Runtime.addBinding', { name: CAPTURE_BINDING, executionContextName: WORLD_NAME });
        this.boundWorld = world.worldId;
      }
      try {
        return await frames.call<CaptureReport>(frames.top, 'watchCapture', [], this.options.timeoutMs);
      } catch (error) {
        // The document was replaced between the two calls: bind in its new world.
        if (attempt >= 3 || !isBindingMissing(error)) throw error;
      }
    }
  }

  private emit(decision: CaptureDecision): void {
    if (sameDecision(this.last, decision)) return;
    this.last = decision;
    for (const listener of [...this.listeners]) this.tell(listener, decision);
  }

  private tell(listener: CaptureListener, decision: CaptureDecision): void {
    try {
      listener(decision);
    } catch {
      // A listener's failure is its own: the others still hear every change.
    }
  }
}
