// One agent demo session as an object: its machine, refs, bundle, target and driver, call
// queue and kill signal, with one way to run work under it (`run`) and one way to end it by
// force (`kill`). The machine holds the state, counts and times; this object supplies the
// machine's effects and keeps the resources they make.
import type { EndState } from '../contract/end-state.js';
import { randomBytes } from 'node:crypto';
import { createActor, fromPromise, type Actor } from 'xstate';
import { ToolError } from '../contract/errors.js';
import type { DemoMethod } from '../contract/types.js';
import { SerialQueue } from '../common/serial-queue.js';
import { diskProblemOf, type ReceiptFields, type ReceiptInput, type SessionBundle } from '../bundle/index.js';
import { TAG, sessionMachine, type DenyReason, type KillReason, type SessionContext } from '../session/machine.js';
import type { SessionRegistry } from '../session/registry.js';
import type { TargetDriver } from '../targets/types.js';
import type { AppEntry } from '../settings/settings.js';
import type { RequesterView } from '../ui-protocol/index.js';
import { RefTable } from './ref-table.js';
import type { SessionCapture } from './session-capture.js';
import { SessionResources, type ResourceDeps } from './session-resources.js';

export type { DriverFactory } from './session-resources.js';

/** What a session needs from its host. */
export interface SessionDeps extends ResourceDeps {
  registry: SessionRegistry;
  /** Who answers consent here, for the bundle's consent record. */
  answeredBy: string;
  consentTimeoutMs?: number;
  /** Told of every change the UI may show (state, steps, a bundle made). */
  changed: (session: Session) => void;
  /** Told when a step or its picture is in the bundle: an open bundle view and the list's counts follow. */
  bundleGrew?: (session: Session) => void;
}

/** What work run under a session may use. */
export interface SessionWork {
  readonly driver: TargetDriver;
  /** Aborted by a kill: the step in progress stops where it can. */
  readonly signal: AbortSignal;
  /**
   * Settles with `work`, or rejects with session_killed the moment the session is killed (a
   * call in flight is answered at once, whatever its page round trip is still doing); refuses
   * at once when the session has already ended.
   */
  guard<T>(work: Promise<T>): Promise<T>;
}

/** A step whose input went out, as its receipt records it. */
export interface RecordedStep extends ReceiptFields {
  /** Where it clicked, in the top page's CSS pixels: for the live view, not the receipt. */
  point?: { x: number; y: number } | undefined;
  /** Where it happened, in picture pixels: for the receipt (the step's picture, the exports). */
  place?: ReceiptInput['place'];
}

/** How consent ended for the request that asked it. */
export type ConsentOutcome = { allowed: true } | { allowed: false; error: ToolError };

function randomId(prefix: string, bytes = 12): string {
  return `${prefix}-${randomBytes(bytes).toString('base64url')}`;
}

export class Session {
  readonly id = randomId('s');
  readonly refs = new RefTable();
  /** Settles once the person answered (or the request ended otherwise): the queue moves on. */
  readonly answered: Promise<void>;
  /** Settles once the request can be answered: a token can be issued, or the error says why not. */
  readonly decided: Promise<ConsentOutcome>;
  /** Settles once the bundle exists (or the session is over without one). */
  readonly bundleOpened: Promise<void>;
  /** Settles once the session is over: bundle sealed (or its failure logged), target closed. */
  readonly finished: Promise<void>;
  private readonly actor: Actor<typeof sessionMachine>;
  private readonly calls = new SerialQueue();
  private readonly killSwitch = new AbortController();
  private readonly pictures = new Set<Promise<void>>();
  private readonly resources: SessionResources;
  /** The latest step that ran, for the live view's caption. */
  lastStep: { index: number; op: string; role: string; label: string } | null = null;

  constructor(
    readonly app: AppEntry,
    readonly agentName: string,
    /** The process that asked, as the OS reports it (for the dialog and the consent record). */
    readonly requester: RequesterView,
    private readonly deps: SessionDeps,
  ) {
    this.resources = new SessionResources(this.id, app, deps, () => deps.changed(this));
    const machine = sessionMachine.provide({
      actors: {
        openBundle: fromPromise(() => this.openBundle()),
        arm: fromPromise(({ signal }) => this.arm(signal)),
        close: fromPromise(({ input }) => this.close(input.outcome)),
        seal: fromPromise(({ input }) => this.resources.seal(input.outcome, input.reason)),
      },
      ...(deps.consentTimeoutMs !== undefined ? { delays: { consentTimeout: deps.consentTimeoutMs } } : {}),
    });
    this.actor = createActor(machine, {
      input: { sessionId: this.id, appId: app.id, appName: app.name, agentName, requestedAt: deps.now() },
    });
    this.answered = this.when((s) => !s.hasTag(TAG.awaitingConsent)).then(() => undefined);
    this.decided = this.when((s) => !s.hasTag(TAG.awaitingConsent) && !s.matches('allowing')).then(() => this.consentOutcome());
    this.bundleOpened = this.when((s) => s.context.bundleId !== null || s.status === 'done');
    this.finished = this.when((s) => s.status === 'done').then(() => {
      const { sealProblem } = this.context;
      if (sealProblem) deps.log(`sealing the bundle of ${this.id} failed: ${sealProblem}; it is sealed as a crash on the next start`);
      return this.resources.targetClosed;
    });
    this.actor.subscribe((snapshot) => {
      // However it came to be killed (the kill control, or the machine itself when arming
      // failed), the token is revoked and calls in flight are answered at once.
      if (snapshot.context.outcome === 'killed' && !this.killSwitch.signal.aborted) {
        deps.registry.retire(this.id, 'killed');
        this.killSwitch.abort(stoppedError(snapshot.context.killReason, snapshot.context.failure));
      }
      deps.changed(this);
    });
    this.actor.start();
  }

  get context(): SessionContext {
    return this.actor.getSnapshot().context;
  }

  /** The target's capture (the live view's state, the last click); see session-capture.ts. */
  get capture(): SessionCapture {
    return this.resources.capture;
  }

  /** Consent given and not ended: the kill control applies. */
  get live(): boolean {
    return this.actor.getSnapshot().hasTag(TAG.live);
  }

  get armed(): boolean {
    return this.actor.getSnapshot().hasTag(TAG.acceptsCalls);
  }

  /** Waiting for the person, in the queue or shown. */
  get awaitingConsent(): boolean {
    return this.actor.getSnapshot().hasTag(TAG.awaitingConsent);
  }

  /** Its dialog is the one shown now. */
  get asking(): boolean {
    return this.actor.getSnapshot().matches({ awaitingConsent: 'consenting' });
  }

  // ---- consent ----

  showConsent(): void {
    this.actor.send({ type: 'CONSENT_SHOWN' });
  }

  allow(): void {
    this.actor.send({ type: 'ALLOW', at: this.deps.now() });
  }

  deny(reason: DenyReason): void {
    this.actor.send({ type: 'DENY', reason });
  }

  /** The session's token, minted once it may be answered; revoked at once if the session already ended. */
  issueToken(): string {
    const { registry } = this.deps;
    const token = registry.mint(this.id);
    // A kill between Allow and this line could not revoke a token that did not exist yet.
    if (!this.live) registry.retire(this.id, this.context.outcome ?? 'killed');
    return token;
  }

  private consentOutcome(): ConsentOutcome {
    const { context } = this;
    if (this.actor.getSnapshot().matches('denied')) {
      const reason = context.denyReason ?? 'deny';
      const why = reason === 'host shutdown' ? 'the host shut down before consent was given' : `the person did not allow the demo session (${reason})`;
      return { allowed: false, error: new ToolError('consent_denied', why) };
    }
    if (context.bundleId === null && context.failure !== null) {
      // Allowed, but nothing could be recorded: no token for a session without a record.
      return { allowed: false, error: new ToolError('service_unavailable', `the demo session was allowed but could not start: ${context.failure}`, false) };
    }
    return { allowed: true };
  }

  // ---- work under the session ----

  /**
   * Runs `work` after the session's earlier calls (one page, one pointer, one keyboard), once
   * armed. A failure after an end or a kill is reported as that end; a failed call is recorded
   * in the bundle under `method`.
   */
  async run<T>(method: DemoMethod, work: (session: SessionWork) => Promise<T>): Promise<T> {
    const driver = this.armedDriver();
    const scope: SessionWork = { driver, signal: this.killSwitch.signal, guard: (promise) => this.guard(promise) };
    return this.calls.run(async () => {
      try {
        this.throwIfOver();
        return await work(scope);
      } catch (error) {
        const reported = this.explain(error);
        await this.recordCall(method, { ok: false, code: reported instanceof ToolError ? reported.code : 'service_unavailable' }).catch(() => {});
        throw reported;
      }
    });
  }

  /** Records a call's outcome; a failure to write it ends the session (session_killed). */
  async recordCall(method: DemoMethod, outcome: { ok: true } | { ok: false; code: string }): Promise<void> {
    // Once the session is ending, its end is the last word: nothing is appended after it.
    if (this.context.outcome !== null) return;
    await this.write((bundle) => bundle.recordCall({ method, ok: outcome.ok, ...(outcome.ok ? {} : { code: outcome.code }), at: this.deps.now() }));
  }

  /**
   * Records the receipt of a step whose input went out; resolves with its id once durable. A
   * kill that landed meanwhile wins: no receipt after a kill. The picture follows, off the
   * answer's path.
   */
  async recordStep(driver: TargetDriver, step: RecordedStep): Promise<string> {
    // After an end the step in flight is still recorded (an end lets calls in flight finish).
    if (this.killSwitch.signal.aborted) throw this.killedError();
    const receiptId = randomId('r', 9);
    const { point, ...receipt } = step;
    await this.write((bundle) => bundle.recordReceipt({ receiptId, ...receipt, at: this.deps.now() }));
    this.lastStep = { index: this.context.steps, op: step.op, role: step.role, label: step.label };
    if (point) this.resources.capture.lastClick = { ...point, at: this.deps.now() };
    this.actor.send({ type: 'STEP_RECORDED' });
    this.deps.bundleGrew?.(this);
    const picture = this.capturePicture(driver, receiptId);
    this.pictures.add(picture);
    void picture.finally(() => this.pictures.delete(picture));
    return receiptId;
  }

  private async capturePicture(driver: TargetDriver, receiptId: string): Promise<void> {
    let picture: { mime: string; data: Buffer } | null;
    try {
      // Under the per-frame rule: safe before and after it was taken. The driver itself takes
      // no picture of a target that is not capture-safe (the act may have made it so, as Go
      // private does): it refuses with capture_unsafe.
      picture = await this.resources.capture.picture(driver);
      if (!picture) throw new Error('the target was not capture-safe around the moment the picture was taken');
    } catch (error) {
      this.deps.log(`no picture for ${receiptId}: ${(error as Error).message}`);
      return;
    }
    // Kept while the session runs, and while an end waits for it; never after a kill.
    const snapshot = this.actor.getSnapshot();
    const stillRecording = snapshot.hasTag(TAG.live) || (snapshot.matches('closing') && this.context.outcome === 'complete');
    if (!stillRecording) return;
    const kept = picture;
    await this.write((bundle) => bundle.recordPicture(receiptId, kept)).then(
      () => this.deps.bundleGrew?.(this),
      (error: unknown) => this.deps.log(`no picture for ${receiptId}: ${(error as Error).message}`),
    );
  }

  private armedDriver(): TargetDriver {
    const snapshot = this.actor.getSnapshot();
    this.throwIfOver();
    const cannotOpen = this.cannotOpen;
    if (cannotOpen !== null) throw new ToolError('permission_missing', cannotOpen);
    const { driver } = this.resources;
    if (!snapshot.hasTag(TAG.acceptsCalls) || !driver) {
      throw new ToolError('not_armed', 'the session is still arming (opening the target and starting capture); try again shortly', true);
    }
    return driver;
  }

  /** Throws the session's end, if it has ended (or is ending). */
  private throwIfOver(): void {
    const { outcome } = this.context;
    if (this.killSwitch.signal.aborted || outcome === 'killed') throw this.killedError();
    if (outcome === 'complete') throw new ToolError('session_ended', 'the session ended with demo.end');
  }

  private guard<T>(work: Promise<T>): Promise<T> {
    work.catch(() => {});
    const { signal } = this.killSwitch;
    return new Promise<T>((resolve, reject) => {
      this.throwIfOver();
      const onKill = () => reject(this.killedError());
      signal.addEventListener('abort', onKill, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onKill);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onKill);
          reject(this.explain(error));
        },
      );
    });
  }

  /** After a kill or an end, any failure of work in flight is reported as that end, not as what broke. */
  private explain(error: unknown): unknown {
    if (error instanceof ToolError && error.code === 'session_killed') return error;
    if (this.killSwitch.signal.aborted || this.context.outcome === 'killed') return this.killedError();
    if (this.context.outcome === 'complete' && !(error instanceof ToolError)) return new ToolError('session_ended', 'the session ended with demo.end');
    return error;
  }

  /** session_killed, saying why this session was stopped. */
  killedError(): ToolError {
    const { reason } = this.killSwitch.signal;
    if (reason instanceof ToolError) return reason;
    return stoppedError(this.context.killReason);
  }

  /** Writes to the bundle; any failure to write ends the session killed, with the disk problem as its reason. */
  private async write(record: (bundle: SessionBundle) => Promise<void>): Promise<void> {
    const { bundle } = this.resources;
    if (!bundle) throw new Error(`session ${this.id} has no bundle to record in`);
    try {
      await record(bundle);
    } catch (error) {
      const problem = diskProblemOf(error);
      // Not a disk problem (a malformed record): the caller's to report; the bundle is intact.
      if (!problem) throw error;
      this.deps.log(`bundle write failed for ${this.id}: ${(error as Error).message}`);
      void this.kill(problem, (error as Error).message);
      throw this.killedError();
    }
  }

  /** Settles once every call queued so far has settled. */
  idle(): Promise<void> {
    return this.calls.idle();
  }

  // ---- the end ----

  /**
   * demo.end: lets calls in flight finish, closes the target, seals the bundle `complete`; a
   * session whose target never opened is sealed `killed` with that reason (nothing ran).
   */
  async end(): Promise<{ bundleId: string; state: EndState }> {
    const neverOpened = this.cannotOpen !== null;
    this.deps.registry.retire(this.id, neverOpened ? 'killed' : 'complete');
    this.actor.send({ type: 'END', at: this.deps.now() });
    await this.finished;
    const { bundleId, sealProblem, outcome } = this.context;
    if (outcome === 'killed' && !neverOpened) throw this.killedError();
    if (!bundleId || sealProblem) {
      throw new ToolError('service_unavailable', `the session ended but its bundle could not be sealed: ${sealProblem ?? 'no bundle'}`);
    }
    return { bundleId, state: outcome ?? 'complete' };
  }

  /** Why the target cannot be opened (a missing permission, no browser), while the session waits to be ended; else null. */
  get cannotOpen(): string | null {
    return this.actor.getSnapshot().matches({ live: 'permissionMissing' }) ? (this.context.permissionProblem ?? 'a required permission is missing') : null;
  }

  /**
   * The one kill path (kill control, shutdown, target gone, a failed write): the token is
   * revoked first, calls in flight are answered session_killed at once, the target is
   * detached and the bundle sealed `killed`. Resolves when that is done. Idempotent.
   */
  kill(reason: KillReason, failure?: string): Promise<void> {
    if (!this.live) return this.finished;
    this.deps.registry.retire(this.id, 'killed');
    this.killSwitch.abort(stoppedError(reason));
    this.actor.send({ type: 'KILL', reason, at: this.deps.now(), ...(failure !== undefined ? { failure } : {}) });
    return this.finished;
  }

  // ---- the machine's effects ----

  private async openBundle(): Promise<string> {
    const { context } = this;
    const bundle = await this.resources.openBundle({
      sessionId: this.id,
      appId: this.app.id,
      appName: this.app.name,
      agentName: this.agentName,
      requestedAt: context.requestedAt,
      answeredAt: context.answeredAt ?? this.deps.now(),
      answeredBy: this.deps.answeredBy,
      requester: this.requester,
    });
    // Told even when a kill already moved the machine on: the bundle exists and will be sealed.
    this.actor.send({ type: 'BUNDLE_OPENED', bundleId: bundle.bundleId });
    return bundle.bundleId;
  }

  private async arm(signal: AbortSignal): Promise<number> {
    await this.resources.arm(signal, (reason) => {
      if (this.live) void this.kill(reason === 'crashed' ? 'target crashed' : 'target closed');
    });
    return this.deps.now();
  }

  private async close(outcome: EndState): Promise<void> {
    if (outcome === 'complete') {
      // An end lets the calls before it finish, and the pictures of their steps be kept.
      await this.calls.idle();
      await Promise.all([...this.pictures]);
    }
    this.resources.detach();
  }

  /** Resolves with the first snapshot that satisfies `test` (the current one included). */
  private when(test: (snapshot: ReturnType<Actor<typeof sessionMachine>['getSnapshot']>) => boolean): Promise<void> {
    return new Promise((resolve) => {
      if (test(this.actor.getSnapshot())) return resolve();
      const subscription = this.actor.subscribe((snapshot) => {
        if (!test(snapshot)) return;
        subscription.unsubscribe();
        resolve();
      });
    });
  }
}

/** session_killed, saying why (the kill control, host shutdown, disk full, ...) and what failed, if something did. */
function stoppedError(reason: KillReason | null, failure?: string | null): ToolError {
  if (!reason) return new ToolError('session_killed', 'the session was stopped');
  return new ToolError('session_killed', failure ? `the session was stopped (${reason}: ${failure})` : `the session was stopped (${reason})`);
}
