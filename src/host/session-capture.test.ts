// What the view says of a session's capture, without Chromium: a real host over a scripted
// target whose capture watch reports as the page agent's does. While the target is not
// capture-safe the live session is `paused` with the driver's reason (the session bar shows
// it); it is `live` again when the target is safe, and the click and step the live view draws
// come from the acts. The screencast itself is tested against a real Chromium (capture/).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { connection, startScriptedHost, until, type ScriptedHost } from './scripted-target.test-support.js';

let h: ScriptedHost;

beforeEach(async () => {
  h = await startScriptedHost();
});

afterEach(async () => {
  await h.cleanup();
});

async function armed(): Promise<{ session: string; token: string }> {
  const { call } = connection();
  const request = h.host.handle('demo.request', { app: FIXTURE_APP_ID, agent_name: 'capture view' }, call);
  const prompt = await until(() => h.host.view().consent ?? undefined, 'the dialog');
  await h.host.bridge.answerConsent(prompt.consentId, 'allow');
  const granted = await request;
  await until(() => (h.view().live.find((s) => s.sessionId === granted.session)?.phase === 'armed' ? true : undefined), 'armed');
  return granted;
}

const liveOf = (session: string) => h.view().live.find((s) => s.sessionId === session);

describe('the capture in the view', () => {
  it('is paused with the driver\'s reason while the target is not capture-safe, and live again once it is', async () => {
    const { session } = await armed();
    await until(() => (liveOf(session)?.capture?.state === 'live' ? true : undefined), 'the capture to be live');

    const driver = h.launcher.last;
    driver.captureReason = 'the page declares its capture state "unsafe" (it needs <meta name="cutright-capture-state" content="safe">)';
    driver.capture = 'unsafe';
    const paused = await until(() => (liveOf(session)?.capture?.state === 'paused' ? liveOf(session)?.capture : undefined), 'the pause');
    expect(paused).toEqual({ state: 'paused', reason: driver.captureReason });

    driver.capture = 'safe';
    await until(() => (liveOf(session)?.capture?.state === 'live' ? true : undefined), 'live again');
  });

  it('carries the last step and where it clicked', async () => {
    const { session, token } = await armed();
    const { call } = connection();
    const snapshot = await h.host.handle('demo.snapshot', { token }, call);
    const submit = snapshot.elements.find((e) => e.label === 'Submit');
    if (!submit) throw new Error('no Submit');
    const driver = h.launcher.last;
    driver.clickPoint = { x: 40, y: 30 };
    await h.host.handle('demo.act', { token, ref: submit.ref, op: 'click' }, call);
    const shown = await until(() => (liveOf(session)?.lastStep ? liveOf(session) : undefined), 'the step in the view');
    expect(shown.lastStep).toEqual({ index: 0, op: 'click', role: 'button', label: 'Submit' });
    expect(shown.lastClick).toMatchObject({ x: 40, y: 30 });
  });
});
