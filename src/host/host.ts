// The composition root: wires the session machine, the registry, the policy gates, the
// target driver and the bundle store into the agent demo service, and exposes the same state
// to the UI through the HostBridge. Both shells (Electron and web) call only this.
import { randomBytes } from 'node:crypto';
import { createActor, fromPromise, type Actor } from 'xstate';
import { ToolError } from '../contract/errors.js';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import type { DemoMethod, DemoMethods, ElementOp, Step } from '../contract/types.js';
import type { BundleStore, SessionBundle } from '../bundle/index.js';
import type { CallContext, DemoHandler } from '../service/server.js';
import { PermissionMissingError, sessionMachine, statusOf, type DenyReason, type KillReason, type SessionInput, type SessionStatus } from '../session/machine.js';
import { SessionRegistry } from '../session/registry.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { TargetDriver, TargetLauncher, OpenedTarget } from '../targets/types.js';
import type { AppEntry, Settings } from '../settings/settings.js';
import type { ConsentAnswer, HostBridge, HostView, LiveSession, RequesterView } from '../ui-protocol/index.js';
import { requesterView } from './requester.js';
import { RefTable } from './ref-table.js';
import { parseKey } from '../targets/keys.js';
import { tapClicks } from '../capture/click-tap.js';
import { DEFAULT_RECORDING_LIMITS } from '../capture/limits.js';
import { LiveFrames } from './live-frames.js';
import { startRecorder, type CaptureStatus, type Recorder } from '../capture/recorder.js';

/** Makes a driver for an opened target; the shells pass the CDP driver. */
export type DriverFactory = (target: OpenedTarget, app: AppEntry) => Promise<TargetDriver>;

export interface HostOptions {
  settings: SettingsStore;
  bundles: BundleStore;
  launcher: TargetLauncher;
  createDriver: DriverFactory;
  /** The fixture app's entry when fixtures are on (HOST-SPEC section 6), else undefined. */
  fixture?: AppEntry;
  /** Who answers consent here, for the bundle's consent record (e.g. "local user in the web shell"). */
  answeredBy: string;
  now?: () => number;
  log?: (message: string) => void;
  /** How long a consent request may wait for an answer, queue time included. Default 600 s (the contract's demo.request timeout). */
  consentTimeoutMs?: number;
  /** How long shutdown waits for calls in flight to be answered before the socket closes. Default 5 s. */
  shutdownGraceMs?: number;
  /** Records the target continuously and shows it live. Default true; off only to measure what it costs. */
  recording?: boolean;
}

interface SessionRecord {
  readonly sessionId: string;
  readonly app: AppEntry;
  readonly agentName: string;
  /** The process that asked, as the OS reports it (for the dialog and the consent record). */
  readonly requester: RequesterView;
  readonly requestedAt: number;
  readonly actor: Actor<typeof sessionMachine>;
  answeredAt: number | null;
  startedAt: number | null;
  steps: number;
  bundle: SessionBundle | null;
  /** Set while the bundle is being created at arming, so a kill in that moment still seals it. */
  bundleCreating: Promise<SessionBundle> | null;
  target: OpenedTarget | null;
  driver: TargetDriver | null;
  /** The screencast recorder, from arming until the session ends. */
  recorder: Recorder | null;
  capture: CaptureStatus;
  lastStep: { index: number; op: string; role: string; label: string } | null;
  lastClick: { x: number; y: number; at: number } | null;
  readonly refs: RefTable;
  /** Aborted by a kill: the step in progress stops where it can. */
  readonly kill: AbortController;
  /** Serializes snapshots and acts: one page, one pointer, one keyboard. */
  queue: Promise<unknown>;
  /** Settles when sealing is done (the bundle is whole on disk). */
  sealed: Promise<void> | null;
}

export interface Host extends DemoHandler {
  readonly bridge: HostBridge;
  /** Origins that are the host itself (its UI pages): refused as targets. */
  setOwnOrigins(origins: string[]): void;
  /** The kill control. Resolves when the bundle is sealed. */
  kill(sessionId: string, reason?: KillReason): Promise<void>;
  /** Ends every live session as killed (host shutdown) and seals every bundle. */
  shutdown(): Promise<void>;
  /** The live view, for shells that show it without a bridge. */
  view(): HostView;
}

const LIVE: ReadonlySet<SessionStatus> = new Set(['arming', 'armed', 'permissionMissing']);

function randomId(prefix: string, bytes = 12): string {
  return `${prefix}-${randomBytes(bytes).toString('base64url')}`;
}

/** Waits for `work`, but no longer than `ms`. */
async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work.then(() => undefined, () => undefined), timeout]);
  clearTimeout(timer);
}

export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function createHost(options: HostOptions): Host {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const registry = new SessionRegistry();
  const sessions = new Map<string, SessionRecord>();
  const consentQueue: SessionRecord[] = [];
  const listeners = new Set<(view: HostView) => void>();
  const liveFrames = new LiveFrames(log);
  let ownOrigins: string[] = [];
  let bundlesVersion = 0;
  let shuttingDown = false;

  // ---- the UI's view ----

  function view(): HostView {
    const settings = options.settings.settings;
    const showing = consentQueue[0];
    const consent =
      showing && statusOf(showing.actor.getSnapshot()) === 'consenting'
        ? {
            consentId: showing.sessionId,
            appId: showing.app.id,
            appName: showing.app.name,
            appUrl: showing.app.url,
            agentName: showing.agentName,
            requester: showing.requester,
            requestedAt: showing.requestedAt,
          }
        : null;
    const live: LiveSession[] = [];
    for (const record of sessions.values()) {
      const status = statusOf(record.actor.getSnapshot());
      if (!LIVE.has(status)) continue;
      live.push({
        sessionId: record.sessionId,
        appId: record.app.id,
        appName: record.app.name,
        agentName: record.agentName,
        phase: status === 'armed' ? 'armed' : 'arming',
        startedAt: record.startedAt ?? record.requestedAt,
        steps: record.steps,
        capture: record.capture.state === 'paused' ? { state: 'paused', reason: record.capture.reason } : { state: record.capture.state },
        lastStep: record.lastStep,
        lastClick: record.lastClick,
      });
    }
    return { demoMode: settings.demoMode, consent, consentQueue: Math.max(0, consentQueue.length - 1), live, bundlesVersion };
  }

  function emit(): void {
    const current = view();
    for (const listener of listeners) {
      try {
        listener(current);
      } catch (error) {
        log(`view listener failed: ${String(error)}`);
      }
    }
  }

  // ---- the catalog ----

  function catalog(): AppEntry[] {
    const apps = options.settings.settings.apps;
    return options.fixture ? [options.fixture, ...apps] : apps;
  }

  function isHostItself(app: AppEntry): boolean {
    const origins = [originOf(app.url), ...app.allowedOrigins];
    return origins.some((origin) => origin !== null && ownOrigins.includes(origin));
  }

  // ---- consent ----

  function showNextConsent(): void {
    const next = consentQueue[0];
    if (next && statusOf(next.actor.getSnapshot()) === 'requested') next.actor.send({ type: 'CONSENT_SHOWN' });
    emit();
  }

  function leaveConsentQueue(record: SessionRecord): void {
    const index = consentQueue.indexOf(record);
    if (index === -1) return;
    consentQueue.splice(index, 1);
    if (index === 0) showNextConsent();
    else emit();
  }

  /** Refuses what no person should be asked about (HOST-SPEC section 3, demo.request). */
  function appToAsk(appId: string): AppEntry {
    const app = catalog().find((entry) => entry.id === appId);
    if (!app) throw new ToolError('unknown_app', `app "${appId}" is not in the demo catalog; demo.apps lists the ids`);
    if (options.settings.settings.deniedApps.includes(app.id)) throw new ToolError('target_blocked', `app "${app.id}" is denied in the host's settings`);
    if (isHostItself(app)) throw new ToolError('target_blocked', `app "${app.id}" points at CutRight host itself, which is never a target`);
    if (shuttingDown) throw new ToolError('service_unavailable', 'the host is shutting down', true);
    return app;
  }

  function sessionActor(arming: (signal: AbortSignal) => Promise<void>, input: SessionInput): Actor<typeof sessionMachine> {
    const machine = sessionMachine.provide({
      actors: { arm: fromPromise(({ signal }) => arming(signal)) },
      ...(options.consentTimeoutMs !== undefined ? { delays: { consentTimeout: options.consentTimeoutMs } } : {}),
    });
    return createActor(machine, { input });
  }

  function newRecord(app: AppEntry, agentName: string, requester: RequesterView): SessionRecord {
    const sessionId = randomId('s');
    const record: SessionRecord = {
      sessionId,
      app,
      agentName,
      requester,
      requestedAt: now(),
      actor: sessionActor((signal) => arm(record, signal), { sessionId, appId: app.id, appName: app.name, agentName }),
      answeredAt: null,
      startedAt: null,
      steps: 0,
      bundle: null,
      bundleCreating: null,
      target: null,
      driver: null,
      recorder: null,
      capture: { state: 'starting' },
      lastStep: null,
      lastClick: null,
      refs: new RefTable(),
      kill: new AbortController(),
      queue: Promise.resolve(),
      sealed: null,
    };
    // The machine kills a session by itself when arming fails; finish that kill here. Watched
    // from the start, so an arming that fails at once is not missed.
    let lastStatus: SessionStatus | null = null;
    record.actor.subscribe((snapshot) => {
      const status = statusOf(snapshot);
      if (status === 'killed' && !record.sealed) void finishKilled(record, snapshot.context.killReason ?? 'arming failed');
      // The UI shows the phase (arming, armed): tell it of every change, arming's end included.
      if (status !== lastStatus) {
        lastStatus = status;
        emit();
      }
    });
    return record;
  }

  /** Queues the record's dialog and waits for its answer; the client leaving denies it. */
  async function awaitConsent(record: SessionRecord, context: CallContext): Promise<'allowed' | DenyReason> {
    const outcome = new Promise<'allowed' | DenyReason>((resolve) => {
      record.actor.subscribe((snapshot) => {
        const status = statusOf(snapshot);
        if (status === 'denied') resolve(snapshot.context.denyReason ?? 'deny');
        else if (status !== 'requested' && status !== 'consenting') resolve('allowed');
      });
    });
    const onDisconnect = () => record.actor.send({ type: 'DENY', reason: 'client disconnected' });
    context.disconnected.addEventListener('abort', onDisconnect, { once: true });
    // The session stays in the machine as 'requested' until its dialog's turn; it arms only
    // after the bundle exists, so every step it takes has a place to be recorded.
    record.actor.start();
    consentQueue.push(record);
    if (consentQueue.length === 1) showNextConsent();
    else emit();
    if (context.disconnected.aborted) onDisconnect();
    try {
      return await outcome;
    } finally {
      context.disconnected.removeEventListener('abort', onDisconnect);
      leaveConsentQueue(record);
    }
  }

  async function request(params: DemoMethods['demo.request']['params'], context: CallContext): Promise<DemoMethods['demo.request']['result']> {
    const app = appToAsk(params.app);
    const record = newRecord(app, params.agent_name, requesterView(await context.requester()));
    sessions.set(record.sessionId, record);
    const result = await awaitConsent(record, context);
    if (result !== 'allowed') {
      // Nothing was created before Allow: no bundle, no token; only the record goes.
      sessions.delete(record.sessionId);
      record.actor.stop();
      log(`consent for ${app.id} ended without a session (${result})`);
      if (result === 'host shutdown') throw new ToolError('consent_denied', 'the host shut down before consent was given');
      throw new ToolError('consent_denied', `the person did not allow the demo session (${result})`);
    }
    const token = registry.mint(record.sessionId);
    // A kill between Allow and this line could not revoke a token that did not exist yet.
    if (!LIVE.has(statusOf(record.actor.getSnapshot()))) registry.retire(record.sessionId, 'killed');
    emit();
    return { session: record.sessionId, token, app: app.id };
  }

  function answerConsent(consentId: string, answer: ConsentAnswer): void {
    const record = consentQueue[0];
    if (!record || record.sessionId !== consentId || statusOf(record.actor.getSnapshot()) !== 'consenting') {
      throw new Error('that consent request is no longer open');
    }
    if (answer === 'deny') {
      record.actor.send({ type: 'DENY', reason: 'deny' });
      return;
    }
    record.answeredAt = now();
    record.startedAt = record.answeredAt;
    record.actor.send({ type: 'ALLOW' });
  }

  // ---- arming: bundle, target, driver ----

  async function createBundle(record: SessionRecord): Promise<SessionBundle> {
    record.bundleCreating = options.bundles.create({
      sessionId: record.sessionId,
      appId: record.app.id,
      appName: record.app.name,
      agentName: record.agentName,
      requestedAt: record.requestedAt,
      answeredAt: record.answeredAt ?? now(),
      answeredBy: options.answeredBy,
    });
    record.bundle = await record.bundleCreating;
    bundlesVersion += 1;
    emit();
    return record.bundle;
  }

  async function openTarget(record: SessionRecord): Promise<OpenedTarget> {
    try {
      return await options.launcher.open(record.app.url);
    } catch (error) {
      // A shell that checked an OS permission (macOS Accessibility, Screen Recording) already
      // names it and its fix: pass that on as it is.
      if (error instanceof PermissionMissingError) throw error;
      throw new PermissionMissingError(
        `permission missing: a browser the host can start or attach to, to open ${record.app.name} ` +
          `(${(error as Error).message}). Install Chromium, or point --browser (or CUTRIGHT_BROWSER) at a Chromium-based browser, then request a new session.`,
      );
    }
  }

  async function arm(record: SessionRecord, signal: AbortSignal): Promise<void> {
    await createBundle(record);
    if (signal.aborted) return;
    const target = await openTarget(record);
    record.target = target;
    if (signal.aborted) return void (await target.close().catch(() => {}));
    // The live view shows where the agent clicked: read off the input the driver sends.
    const tapped = tapClicks(target.transport, (point) => {
      record.lastClick = point;
    }, now);
    const driver = await options.createDriver({ ...target, transport: tapped }, record.app);
    // A kill while the driver was being made has already closed the target: let the driver go too.
    if (signal.aborted) return void (await driver.close().catch(() => {}));
    record.driver = driver;
    if (options.recording !== false) startRecording(record, target, driver);
    void driver.closed.then((reason) => {
      if (LIVE.has(statusOf(record.actor.getSnapshot()))) {
        void killSession(record, reason === 'crashed' ? 'target crashed' : 'target closed');
      }
    });
  }

  /** The continuous capture (issue: watch and record): off the act path, gated frame by frame. */
  function startRecording(record: SessionRecord, target: OpenedTarget, driver: TargetDriver): void {
    const bundle = record.bundle;
    record.recorder = startRecorder({
      transport: target.transport,
      source: driver,
      ...(bundle ? { recording: bundle.recording } : {}),
      limits: options.settings.settings.recording ?? DEFAULT_RECORDING_LIMITS,
      now,
      log: (message) => log(`${record.sessionId}: ${message}`),
      onFrame: (frame) => liveFrames.publish({ type: 'frame', sessionId: record.sessionId, ...frame }),
      onStatus: (status) => {
        record.capture = status;
        emit();
      },
    });
  }

  // ---- token and state checks (HOST-SPEC section 2, checks 4 and 5) ----

  function liveRecord(token: string): SessionRecord {
    const found = registry.lookup(token);
    if (found.kind === 'unknown') throw new ToolError('invalid_token', 'the token is unknown or from a session that ended long ago');
    if (found.kind === 'gone') {
      if (found.how === 'killed') throw new ToolError('session_killed', 'the session was stopped (kill control or host)');
      throw new ToolError('session_ended', 'the session ended with demo.end');
    }
    const record = sessions.get(found.sessionId);
    if (!record) throw new ToolError('invalid_token', 'the token is unknown');
    return record;
  }

  function requireArmed(record: SessionRecord): TargetDriver {
    const snapshot = record.actor.getSnapshot();
    const status = statusOf(snapshot);
    if (status === 'killed') throw killedError(record);
    if (status === 'ended') throw new ToolError('session_ended', 'the session ended');
    if (status === 'permissionMissing') throw new ToolError('permission_missing', snapshot.context.permissionProblem ?? 'a required permission is missing');
    if (status !== 'armed' || !record.driver) throw new ToolError('not_armed', 'the session is still arming (opening the target and starting capture); try again shortly', true);
    return record.driver;
  }

  /** session_killed, saying why (the kill control, host shutdown, disk full, ...). */
  function stoppedError(reason: KillReason | null): ToolError {
    return new ToolError('session_killed', reason ? `the session was stopped (${reason})` : 'the session was stopped');
  }

  function killedError(record: SessionRecord): ToolError {
    const { reason } = record.kill.signal;
    if (reason instanceof ToolError) return reason;
    return stoppedError(record.actor.getSnapshot().context.killReason);
  }

  /**
   * Settles with `work`, or rejects with session_killed the moment the session is killed: the
   * answer to a call in flight does not wait for its page round trip. The work itself runs on
   * and records nothing after the kill (runStep checks before each receipt).
   */
  function untilKilled<T>(record: SessionRecord, work: Promise<T>): Promise<T> {
    const { signal } = record.kill;
    work.catch(() => {});
    if (signal.aborted) return Promise.reject(killedError(record));
    return new Promise<T>((resolve, reject) => {
      const onKill = () => reject(killedError(record));
      signal.addEventListener('abort', onKill, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onKill);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onKill);
          reject(error);
        },
      );
    });
  }

  /** After a kill or an end, any failure of work in flight is reported as that end, not as what broke. */
  function asEndError(record: SessionRecord, error: unknown): unknown {
    const status = statusOf(record.actor.getSnapshot());
    if (error instanceof ToolError && error.code === 'session_killed') return error;
    if (record.kill.signal.aborted || status === 'killed') return killedError(record);
    if (status === 'ended' && !(error instanceof ToolError)) return new ToolError('session_ended', 'the session ended');
    return error;
  }

  function throwIfKilled(record: SessionRecord): void {
    const status = statusOf(record.actor.getSnapshot());
    if (record.kill.signal.aborted || status === 'killed') throw killedError(record);
    if (status === 'ended') throw new ToolError('session_ended', 'the session ended');
  }

  /** Runs `work` after the session's earlier snapshots and acts. */
  function serialized<T>(record: SessionRecord, work: () => Promise<T>): Promise<T> {
    const run = record.queue.then(work, work);
    record.queue = run.catch(() => {});
    return run;
  }

  async function recordCall(record: SessionRecord, method: DemoMethod, outcome: { ok: true } | { ok: false; code: string }): Promise<void> {
    // Once sealing has begun the end event is the last word: nothing is appended after it.
    if (!record.bundle || record.sealed || record.bundle.sealed) return;
    try {
      await record.bundle.recordCall({ method, ok: outcome.ok, ...(outcome.ok ? {} : { code: outcome.code }), at: now() });
    } catch (error) {
      await failOnDisk(record, error);
    }
  }

  async function failOnDisk(record: SessionRecord, error: unknown): Promise<never> {
    const problem = (error as { diskProblem?: string }).diskProblem;
    const reason: KillReason = problem === 'disk full' ? 'disk full' : 'data folder unwritable';
    log(`bundle write failed for ${record.sessionId}: ${(error as Error).message}`);
    await killSession(record, reason);
    throw new ToolError('session_killed', `the session was stopped: the host could not record it (${reason})`);
  }

  // ---- snapshot ----

  async function snapshot(params: DemoMethods['demo.snapshot']['params']): Promise<DemoMethods['demo.snapshot']['result']> {
    const record = liveRecord(params.token);
    const driver = requireArmed(record);
    return serialized(record, async () => {
      throwIfKilled(record);
      const shot = await untilKilled(record, driver.snapshot()).catch((error: unknown) => {
        throw asEndError(record, error);
      });
      throwIfKilled(record);
      if (shot.captureState !== 'safe') {
        await recordCall(record, 'demo.snapshot', { ok: false, code: 'capture_unsafe' });
        throw new ToolError('capture_unsafe', `the target cannot report a capture-safe state (${shot.captureState}); nothing is listed`);
      }
      const elements = shot.elements.map((element) => ({
        ref: record.refs.refFor(element),
        role: element.role,
        label: element.label,
        ops: [...element.ops],
      }));
      await recordCall(record, 'demo.snapshot', { ok: true });
      return { capture_state: 'safe' as const, elements };
    });
  }

  // ---- act and batch ----

  interface CheckedStep {
    step: Step;
    nodeKey: string;
    role: string;
    label: string;
  }

  /** Check 6 for one step, before anything runs: the ref is this session's, the op is listed, no gate refuses. */
  function checkStep(record: SessionRecord, step: Step, where: string): CheckedStep {
    const entry = record.refs.lookup(step.ref);
    if (!entry) throw new ToolError('invalid_arguments', `${where}: ref "${step.ref}" is not one this session issued; take a new snapshot`);
    if (!entry.ops.includes(step.op as ElementOp)) {
      throw new ToolError('invalid_arguments', `${where}: the element ${entry.role} "${entry.label}" does not offer "${step.op}" (it offers ${entry.ops.join(', ') || 'nothing'})`);
    }
    if (entry.secure) throw new ToolError('target_blocked', `${where}: ${entry.role} "${entry.label}" is a secure or credential field; the host never types into or reads it`);
    if (step.op === 'press' && step.key !== undefined) checkKey(step.key, where);
    return { step, nodeKey: entry.nodeKey, role: entry.role, label: entry.label };
  }

  /** The key grammar is checked before anything runs, so a batch with a bad key at step 5 runs no step. */
  function checkKey(key: string, where: string): void {
    try {
      parseKey(key);
    } catch (error) {
      throw new ToolError('invalid_arguments', `${where}: ${(error as Error).message}`);
    }
  }

  async function captureGate(driver: TargetDriver): Promise<void> {
    const state = await driver.captureState();
    if (state.state !== 'safe') throw new ToolError('capture_unsafe', `the target cannot report a capture-safe state (${state.state}); refused`);
  }

  /**
   * Runs one checked step: the input, then the durable receipt. Returns the receipt id. The
   * capture-safe rule is checked for this very step by the driver, in the same page call that
   * resolves the element (capture_unsafe when not safe), so no extra round trip is spent here.
   */
  async function runStep(record: SessionRecord, driver: TargetDriver, checked: CheckedStep): Promise<string> {
    throwIfKilled(record);
    const { step } = checked;
    // The page round trip is what a kill must not wait for; once the input went out and the
    // receipt is being written, the step is done and its receipt stands.
    await untilKilled(
      record,
      driver.act(
        { nodeKey: checked.nodeKey, op: step.op, ...(step.text !== undefined ? { text: step.text } : {}), ...(step.key !== undefined ? { key: step.key } : {}) },
        { role: checked.role, label: checked.label },
        record.kill.signal,
      ),
    ).catch((error: unknown) => {
      throw asEndError(record, error);
    });
    // A kill that landed while the input was going out wins: no receipt after a kill.
    throwIfKilled(record);
    const receiptId = randomId('r', 9);
    const bundle = record.bundle;
    if (!bundle) throw new Error('armed session has no bundle');
    try {
      await bundle.recordReceipt({
        receiptId,
        op: step.op,
        ref: step.ref,
        role: checked.role,
        label: checked.label,
        ...(step.op === 'type' && step.text !== undefined ? { text: step.text } : {}),
        ...(step.op === 'press' && step.key !== undefined ? { key: step.key } : {}),
        at: now(),
      });
    } catch (error) {
      await failOnDisk(record, error);
    }
    record.lastStep = { index: record.steps, op: step.op, role: checked.role, label: checked.label };
    record.steps += 1;
    emit();
    // The picture is taken after the answer's receipt is durable, off the answer's path.
    void capturePicture(record, driver, receiptId);
    return receiptId;
  }

  async function capturePicture(record: SessionRecord, driver: TargetDriver, receiptId: string): Promise<void> {
    try {
      // The driver takes no picture of a target that is not capture-safe (the act may have made
      // it so, as Go private does): it refuses with capture_unsafe, logged below. The recorder's
      // gate also requires the target safe after the picture was taken, as for every frame.
      const take = () => driver.screenshot();
      const picture = record.recorder ? await record.recorder.vouch(take) : await take();
      if (!picture) throw new Error('the target was not capture-safe around the moment the picture was taken');
      if (record.bundle && !record.bundle.sealed) await record.bundle.recordPicture(receiptId, picture);
    } catch (error) {
      log(`no picture for ${receiptId}: ${(error as Error).message}`);
    }
  }

  function codeOf(error: unknown): string {
    return error instanceof ToolError ? error.code : 'service_unavailable';
  }

  async function act(params: DemoMethods['demo.act']['params']): Promise<DemoMethods['demo.act']['result']> {
    const record = liveRecord(params.token);
    const driver = requireArmed(record);
    return serialized(record, async () => {
      try {
        throwIfKilled(record);
        const { token: _token, ...step } = params;
        let checked: CheckedStep;
        try {
          checked = checkStep(record, step, 'params');
        } catch (error) {
          // Check 6's order: an unsafe target is capture_unsafe before any ref or gate problem.
          // Asked only here: on the way to a good step the driver checks it in its own call.
          await captureGate(driver);
          throw error;
        }
        return { receipt_id: await runStep(record, driver, checked) };
      } catch (error) {
        // A receipt is its own record of a successful act; failures are logged as calls.
        const reported = asEndError(record, error);
        await recordCall(record, 'demo.act', { ok: false, code: codeOf(reported) }).catch(() => {});
        throw reported;
      }
    });
  }

  async function batch(params: DemoMethods['demo.batch']['params']): Promise<DemoMethods['demo.batch']['result']> {
    const record = liveRecord(params.token);
    const driver = requireArmed(record);
    return serialized(record, async () => {
      throwIfKilled(record);
      await captureGate(driver).catch(async (error: unknown) => {
        const reported = asEndError(record, error);
        await recordCall(record, 'demo.batch', { ok: false, code: codeOf(reported) }).catch(() => {});
        throw reported;
      });
      let checked: CheckedStep[];
      try {
        checked = params.steps.map((step, index) => checkStep(record, step, `params.steps[${index}]`));
      } catch (error) {
        await recordCall(record, 'demo.batch', { ok: false, code: codeOf(error) }).catch(() => {});
        throw error;
      }
      const results: { receipt_id: string }[] = [];
      for (const [index, step] of checked.entries()) {
        try {
          results.push({ receipt_id: await runStep(record, driver, step) });
        } catch (error) {
          const code = codeOf(error);
          await recordCall(record, 'demo.batch', { ok: false, code }).catch(() => {});
          if (!(error instanceof ToolError)) log(`batch step ${index} failed: ${(error as Error).message}`);
          return { completed: results.length, results, failed_step: index, error_code: (error instanceof ToolError ? error.code : 'service_unavailable') as never };
        }
      }
      await recordCall(record, 'demo.batch', { ok: true });
      return { completed: results.length, results, failed_step: null, error_code: null };
    });
  }

  // ---- end and kill ----

  async function closeTarget(record: SessionRecord): Promise<void> {
    const driver = record.driver;
    const target = record.target;
    const recorder = record.recorder;
    record.driver = null;
    record.target = null;
    liveFrames.end(record.sessionId);
    // The screencast stops first; frames already kept are on the recording's queue, which the seal writes out.
    await recorder?.stop();
    await driver?.close().catch(() => {});
    await target?.close().catch(() => {});
  }

  async function end(params: DemoMethods['demo.end']['params']): Promise<DemoMethods['demo.end']['result']> {
    const record = liveRecord(params.token);
    const status = statusOf(record.actor.getSnapshot());
    if (status === 'arming') throw new ToolError('not_armed', 'the session is still arming; end it once armed, or stop it with the kill control', true);
    registry.retire(record.sessionId, 'complete');
    record.actor.send({ type: 'END' });
    emit();
    await record.queue;
    await closeTarget(record);
    const bundle = record.bundle;
    if (!bundle) throw new Error('ended session has no bundle');
    record.sealed = (async () => {
      await bundle.recordCall({ method: 'demo.end', ok: true, at: now() });
      await bundle.seal('complete', 'demo.end');
    })();
    try {
      await record.sealed;
    } catch (error) {
      log(`sealing ${bundle.bundleId} failed: ${(error as Error).message}`);
      throw new ToolError('service_unavailable', `the session ended but its bundle could not be sealed: ${(error as Error).message}`);
    } finally {
      sessions.delete(record.sessionId);
      bundlesVersion += 1;
      emit();
    }
    return { ended: true, bundle_id: bundle.bundleId, bundle_state: 'complete' };
  }

  async function killSession(record: SessionRecord, reason: KillReason): Promise<void> {
    const status = statusOf(record.actor.getSnapshot());
    if (!LIVE.has(status)) return record.sealed ?? undefined;
    // Revoke first: from here every call with the token is session_killed, and the calls in
    // flight are answered so at once (untilKilled), whatever their step is still doing.
    registry.retire(record.sessionId, 'killed');
    record.kill.abort(stoppedError(reason));
    record.actor.send({ type: 'KILL', reason });
    return finishKilled(record, reason);
  }

  /** After the machine reached `killed` (sent by killSession, or by itself when arming failed). */
  async function finishKilled(record: SessionRecord, reason: KillReason): Promise<void> {
    if (record.sealed) return record.sealed;
    registry.retire(record.sessionId, 'killed');
    record.kill.abort(stoppedError(reason));
    emit();
    record.sealed = (async () => {
      // The target closes while the bundle is sealed: closing a page can take a while, and
      // nothing is recorded from it after a kill.
      const closing = closeTarget(record);
      // A kill while the bundle was being created still seals it: no bundle is left open.
      const bundle = record.bundle ?? (await record.bundleCreating?.catch(() => null)) ?? null;
      if (bundle) {
        try {
          const failure = record.actor.getSnapshot().context.failure;
          await bundle.seal('killed', failure ? `${reason}: ${failure}` : reason);
        } catch (error) {
          log(`sealing ${bundle.bundleId} as killed failed: ${(error as Error).message}; it is sealed as a crash on the next start`);
        }
      }
      await closing;
    })();
    await record.sealed;
    sessions.delete(record.sessionId);
    bundlesVersion += 1;
    emit();
  }

  async function kill(sessionId: string, reason: KillReason = 'kill control'): Promise<void> {
    const record = sessions.get(sessionId);
    if (!record) return;
    await killSession(record, reason);
  }

  // ---- settings ----

  async function saveSettings(value: unknown): Promise<Settings> {
    const saved = await options.settings.save(value);
    if (!saved.demoMode) {
      // Demo mode off: live sessions end killed, waiting requests are refused.
      for (const record of [...consentQueue]) record.actor.send({ type: 'DENY', reason: 'deny' });
      await Promise.all([...sessions.values()].map((record) => killSession(record, 'demo mode off')));
    }
    emit();
    return saved;
  }

  // ---- the service ----

  async function handle<M extends DemoMethod>(method: M, params: DemoMethods[M]['params'], context: CallContext): Promise<DemoMethods[M]['result']> {
    if (!options.settings.settings.demoMode) throw new ToolError('demo_disabled', 'Demo mode is switched off in CutRight host');
    switch (method) {
      case 'demo.apps':
        return { apps: catalog().map(({ id, name }) => ({ id, name })) } as DemoMethods[M]['result'];
      case 'demo.request':
        return (await request(params as DemoMethods['demo.request']['params'], context)) as DemoMethods[M]['result'];
      case 'demo.snapshot':
        return (await snapshot(params as DemoMethods['demo.snapshot']['params'])) as DemoMethods[M]['result'];
      case 'demo.act':
        return (await act(params as DemoMethods['demo.act']['params'])) as DemoMethods[M]['result'];
      case 'demo.batch':
        return (await batch(params as DemoMethods['demo.batch']['params'])) as DemoMethods[M]['result'];
      case 'demo.end':
        return (await end(params as DemoMethods['demo.end']['params'])) as DemoMethods[M]['result'];
      default:
        throw new ToolError('invalid_arguments', `unknown method ${String(method)}`);
    }
  }

  // ---- the bridge (in process; the shells carry it over IPC or a WebSocket) ----

  const bridge: HostBridge = {
    subscribe(listener) {
      listeners.add(listener);
      listener(view());
      return () => listeners.delete(listener);
    },
    subscribeFrames: (listener) => liveFrames.subscribe(listener),
    async answerConsent(consentId, answer) {
      answerConsent(consentId, answer);
    },
    kill: (sessionId) => kill(sessionId, 'kill control'),
    async killAll() {
      const live = [...sessions.values()].filter((record) => LIVE.has(statusOf(record.actor.getSnapshot())));
      await Promise.all(live.map((record) => kill(record.sessionId, 'kill control')));
      return live.length;
    },
    async denyAllWaiting() {
      const waiting = [...consentQueue];
      for (const record of waiting) record.actor.send({ type: 'DENY', reason: 'deny' });
      return waiting.length;
    },
    listBundles: () => options.bundles.list(),
    getBundle: (bundleId) => options.bundles.get(bundleId),
    getSettings: async () => options.settings.settings,
    saveSettings,
  };

  return {
    handle,
    bridge,
    view,
    kill,
    setOwnOrigins(origins) {
      ownOrigins = [...origins];
    },
    async shutdown() {
      shuttingDown = true;
      for (const record of [...consentQueue]) record.actor.send({ type: 'DENY', reason: 'host shutdown' });
      const live = [...sessions.values()];
      await Promise.all(live.map((record) => killSession(record, 'host shutdown')));
      // Calls in flight now fail as session_killed; let them be answered before the socket closes.
      await settleWithin(Promise.all(live.map((record) => record.queue)), options.shutdownGraceMs ?? 5000);
      await options.launcher.close().catch((error: unknown) => log(`closing the browser failed: ${String(error)}`));
    },
  };
}

export { FIXTURE_APP_ID };
