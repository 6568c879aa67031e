// Helpers shared by the UI specs: ask for a session through the real cutright-ctl and answer
// the real consent dialog where the shell shows it (the web shell's page, Electron's consent window).
import type { Page } from '@playwright/test';
import { ctl, expect, find, snapshotWhenArmed, surfaceOf, type CtlResult, type RunningHost } from './host-fixture.js';

export const FIXTURE = 'app.orthiclabs.demo-fixture';

export function consentDialog(ui: Page) {
  return ui.getByRole('dialog', { name: /demo/i });
}

export function stopDemo(ui: Page) {
  return ui.getByRole('button', { name: 'Stop demo', exact: true });
}

/**
 * Runs `demo request` for `app` and waits until its consent dialog shows (on `ui` in the web
 * shell, in the consent window in Electron). `answer` settles when the person answers (wrapped:
 * an async function returning it bare would wait for it).
 */
export async function requestShowing(host: RunningHost, ui: Page, agentName: string, app = FIXTURE): Promise<{ answer: Promise<CtlResult> }> {
  const answer = ctl(host, 'request', `app=${app}`, `agent_name=${agentName}`);
  await expect(consentDialog(await surfaceOf(host, ui, 'consent'))).toContainText(agentName);
  return { answer };
}

/** Requests a session, clicks Allow, and waits until it is armed. Returns its token. */
export async function allowedSession(host: RunningHost, ui: Page, agentName: string): Promise<string> {
  const { answer } = await requestShowing(host, ui, agentName);
  await consentDialog(await surfaceOf(host, ui, 'consent')).getByRole('button', { name: 'Allow', exact: true }).click();
  const granted = await answer;
  expect(granted.code, JSON.stringify(granted.json)).toBe(0);
  const token = granted.json['token'] as string;
  await snapshotWhenArmed(host, token);
  return token;
}

/** Runs one act through cutright-ctl and expects it to succeed. */
export async function act(host: RunningHost, token: string, role: string, label: string, op: string, ...extra: string[]): Promise<void> {
  const element = find(await snapshotWhenArmed(host, token), role, label);
  const result = await ctl(host, 'act', `token=${token}`, `ref=${element.ref}`, `op=${op}`, ...extra);
  expect(result.code, JSON.stringify(result.json)).toBe(0);
}

/** A full-page screenshot from the top (the sticky top would otherwise sit where the page was scrolled to). */
export async function screenshot(ui: Page, path: string): Promise<void> {
  // Runs in the page; the e2e tsconfig has no DOM types.
  await ui.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await ui.screenshot({ path, fullPage: true });
}
