// The Session on its own, without Chromium: real bundles on disk, a real token registry, a
// scripted target. Its one way to run work (`run`), its one kill path, its end, and what
// happens when the record cannot be written.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../contract/errors.js';
import { openBundleStore, type BundleStore } from '../bundle/index.js';
import { SessionRegistry } from '../session/registry.js';
import { PermissionMissingError } from '../session/machine.js';
import { codeOf } from './harness.test-support.js';
import { SCRIPTED_APP, ScriptedLauncher, THIS_PROCESS, until } from './scripted-target.test-support.js';
import { LiveFrames } from './live-frames.js';
import { Session, type SessionDeps } from './session.js';

let dataDir: string;
let bundles: BundleStore;
let launcher: ScriptedLauncher;
let registry: SessionRegistry;
let logs: string[];

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-session-'));
  bundles = await openBundleStore({ dataDir });
  launcher = new ScriptedLauncher();
  registry = new SessionRegistry();
  logs = [];
});

afterEach(async () => {
  await chmod(bundles.bundlesDir, 0o700).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
});

function deps(overrides: Partial<SessionDeps> = {}): SessionDeps {
  return { bundles, launcher, createDriver: launcher.createDriver, registry, answeredBy: 'session test', now: Date.now, log: (m) => logs.push(m), changed: () => {}, capture: { frames: new LiveFrames() }, ...overrides };
}

/** A session allowed by the person, armed, with its token. */
async function armedSession(): Promise<{ session: Session; token: string }> {
  const session = new Session(SCRIPTED_APP, 'agent', THIS_PROCESS, deps());
  session.showConsent();
  session.allow();
  const outcome = await session.decided;
  if (!outcome.allowed) throw outcome.error;
  const token = session.issueToken();
  await until(() => (session.armed ? true : undefined), 'the session to arm');
  return { session, token };
}

async function bundleOf(session: Session) {
  const id = session.context.bundleId;
  if (!id) throw new Error('no bundle');
  return bundles.get(id);
}

describe('Session.run', () => {
  it('runs work one call at a time, in order', async () => {
    const { session } = await armedSession();
    const order: string[] = [];
    const slow = session.run('demo.snapshot', async () => {
      order.push('first starts');
      await new Promise((r) => setTimeout(r, 20));
      order.push('first ends');
    });
    const fast = session.run('demo.snapshot', async () => {
      order.push('second');
    });
    await Promise.all([slow, fast]);
    expect(order).toEqual(['first starts', 'first ends', 'second']);
  });

  it('refuses before armed (not_armed, retryable) and with a missing permission (permission_missing)', async () => {
    const release = launcher.hold();
    const session = new Session(SCRIPTED_APP, 'agent', THIS_PROCESS, deps());
    session.showConsent();
    session.allow();
    await session.decided;
    const notArmed = await session.run('demo.snapshot', async () => 'ran').catch((e: ToolError) => e);
    expect(notArmed).toMatchObject({ code: 'not_armed', retryable: true });
    release();
    await session.kill('kill control');

    launcher.failure = new PermissionMissingError('permission missing: no browser here');
    const missing = new Session(SCRIPTED_APP, 'agent', THIS_PROCESS, deps());
    missing.showConsent();
    missing.allow();
    await until(() => (missing.context.permissionProblem ? true : undefined), 'arming to fail');
    expect(await codeOf(missing.run('demo.snapshot', async () => 'ran'))).toBe('permission_missing');
    // Nothing ran: the end seals it killed, with the permission as the reason.
    expect(await missing.end()).toMatchObject({ state: 'killed' });
    expect(missing.context).toMatchObject({ killReason: 'target could not open', failure: 'permission missing: no browser here' });
  });

  it('a page that does not load ends the session killed at once, with the reason', async () => {
    launcher.failure = new Error('net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/');
    const session = new Session(SCRIPTED_APP, 'agent', THIS_PROCESS, deps());
    session.showConsent();
    session.allow();
    await session.finished;
    expect(session.context).toMatchObject({ outcome: 'killed', killReason: 'target could not open', failure: 'Demo Fixture could not be opened at http://127.0.0.1:9/: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/' });
    const error = await session.run('demo.snapshot', async () => 'ran').catch((e: ToolError) => e);
    expect(error).toMatchObject({ code: 'session_killed', message: expect.stringContaining('target could not open: Demo Fixture could not be opened') });
  });

  it('a kill answers the call in flight at once (session_killed), and no receipt is written after it', async () => {
    const { session, token } = await armedSession();
    const driver = launcher.last;
    const release = driver.hold();
    const inFlight = session.run('demo.act', async (work) => {
      await work.guard(work.driver.act({ nodeKey: 'n3', op: 'click' }, { role: 'button', label: 'Submit' }));
      return session.recordStep(work.driver, { op: 'click', ref: 'e-1', role: 'button', label: 'Submit' });
    });
    await until(() => (driver.held === 1 ? true : undefined), 'the act to be in flight');
    const killed = session.kill('kill control');
    const error = await inFlight.catch((e: ToolError) => e);
    expect(error).toMatchObject({ code: 'session_killed', message: expect.stringMatching(/kill control/) });
    // The page's act finishes later; nothing is recorded of it.
    release();
    await killed;
    expect(registry.lookup(token)).toMatchObject({ kind: 'gone', how: 'killed' });
    const bundle = await bundleOf(session);
    expect(bundle.summary).toMatchObject({ state: 'killed', reason: 'kill control' });
    expect(bundle.steps).toEqual([]);
    expect(driver.closedByHost).toBe(true);
  });

  it('a step whose page act finished as the kill landed gets no receipt, and the bundle records none', async () => {
    const { session } = await armedSession();
    const driver = launcher.last;
    // The kill has begun (token revoked, sealing under way) when the handler comes to record.
    const killed = session.kill('kill control');
    const error = await session.recordStep(driver, { op: 'click', ref: 'e-1', role: 'button', label: 'Submit' }).catch((e: ToolError) => e);
    expect(error).toMatchObject({ code: 'session_killed' });
    await killed;
    expect((await bundleOf(session)).steps).toEqual([]);
  });

  it('failures after a kill are reported as the kill, and later work is refused', async () => {
    const { session } = await armedSession();
    await session.kill('target crashed');
    expect(await codeOf(session.run('demo.snapshot', async () => 'ran'))).toBe('session_killed');
    await expect(session.run('demo.act', async () => 'ran')).rejects.toThrow(/target crashed/);
  });

  it('a failed call is recorded in the bundle with its code', async () => {
    const { session } = await armedSession();
    await session.run('demo.act', async () => {
      throw new ToolError('invalid_arguments', 'bad ref');
    }).catch(() => {});
    const { bundleId } = await session.end();
    const events = (await bundles.get(bundleId)).summary;
    expect(events.state).toBe('complete');
  });
});

describe('Session: ending', () => {
  it('end lets the call in flight finish and keeps its picture; the bundle is sealed complete', async () => {
    const { session, token } = await armedSession();
    const driver = launcher.last;
    const release = driver.hold();
    const inFlight = session.run('demo.act', async (work) => {
      await work.guard(work.driver.act({ nodeKey: 'n4', op: 'click' }, { role: 'checkbox', label: 'Subscribe' }));
      return session.recordStep(work.driver, { op: 'click', ref: 'e-1', role: 'checkbox', label: 'Subscribe' });
    });
    await until(() => (driver.held === 1 ? true : undefined), 'the act to be in flight');
    const ending = session.end();
    expect(session.live).toBe(false);
    release();
    const receipt = await inFlight;
    const { bundleId } = await ending;
    expect(registry.lookup(token)).toMatchObject({ kind: 'gone', how: 'complete' });
    const bundle = await bundles.get(bundleId);
    expect(bundle.summary).toMatchObject({ state: 'complete', reason: 'demo.end', steps: 1 });
    expect(bundle.steps.map((s) => [s.receiptId, s.picture !== null])).toEqual([[receipt, true]]);
    expect(session.context.steps).toBe(1);
  });

  it('an end while arming ends it: sealed complete, the target opened later is closed', async () => {
    const release = launcher.hold();
    const session = new Session(SCRIPTED_APP, 'agent', THIS_PROCESS, deps());
    session.showConsent();
    session.allow();
    await session.decided;
    session.issueToken();
    const { bundleId } = await session.end();
    release();
    expect((await bundles.get(bundleId)).summary).toMatchObject({ state: 'complete', steps: 0 });
    await until(() => (launcher.closedPages === 1 ? true : undefined), 'the late page to be closed');
  });

  it('the target going away by itself ends the session killed ("target closed")', async () => {
    const { session, token } = await armedSession();
    launcher.last.goAway('closed');
    await session.finished;
    expect(registry.lookup(token)).toMatchObject({ kind: 'gone', how: 'killed' });
    expect((await bundleOf(session)).summary).toMatchObject({ state: 'killed', reason: 'target closed' });
  });

  it('a kill before the token was issued revokes it the moment it is issued', async () => {
    const session = new Session(SCRIPTED_APP, 'agent', THIS_PROCESS, deps());
    session.showConsent();
    session.allow();
    await session.kill('kill control');
    const token = session.issueToken();
    expect(registry.lookup(token)).toMatchObject({ kind: 'gone', how: 'killed' });
    expect((await bundleOf(session)).summary.state).toBe('killed');
  });
});

describe('Session: the record cannot be written', () => {
  it('a data folder that cannot take the bundle: Allow gives no token, the error says why, the session ends killed', async () => {
    // A file where the bundles folder should be: creating the bundle fails even for root.
    await rm(bundles.bundlesDir, { recursive: true });
    await writeFile(bundles.bundlesDir, 'not a folder');
    const session = new Session(SCRIPTED_APP, 'agent', THIS_PROCESS, deps());
    session.showConsent();
    session.allow();
    const outcome = await session.decided;
    expect(outcome.allowed).toBe(false);
    if (outcome.allowed) return;
    expect(outcome.error.code).toBe('service_unavailable');
    expect(outcome.error.message).toMatch(/data folder unwritable/);
    await session.finished;
    expect(session.context).toMatchObject({ outcome: 'killed', killReason: 'data folder unwritable', bundleId: null });
    expect(launcher.drivers).toEqual([]);
    expect(registry.liveCount).toBe(0);
  });

  it('a picture that cannot be written ends the session killed with the reason', async () => {
    const { session, token } = await armedSession();
    const bundleDir = path.join(bundles.bundlesDir, session.context.bundleId ?? '');
    // The pictures folder replaced by a file: the picture's write fails with ENOTDIR.
    await rm(path.join(bundleDir, 'pictures'), { recursive: true });
    await writeFile(path.join(bundleDir, 'pictures'), 'not a folder');
    await session.run('demo.act', async (work) => {
      await work.guard(work.driver.act({ nodeKey: 'n3', op: 'click' }, { role: 'button', label: 'Submit' }));
      return session.recordStep(work.driver, { op: 'click', ref: 'e-1', role: 'button', label: 'Submit' });
    });
    await session.finished;
    expect(registry.lookup(token)).toMatchObject({ kind: 'gone', how: 'killed' });
    expect(session.context).toMatchObject({ outcome: 'killed', killReason: 'data folder unwritable' });
    const bundle = await bundleOf(session);
    expect(bundle.summary.state).toBe('killed');
    expect(bundle.summary.reason).toMatch(/^data folder unwritable: /);
  });
});
