// An in-process host core for the figures that need a target: the real host, socket, client,
// bundles and CDP driver. Targets open through a launcher that mirrors the web shell's
// (chromium-launcher.ts: one Chromium, a fresh browser context per target, Playwright's CDP
// session as the transport) but also hands the bench each target's Playwright page, so that
// Playwright's own calls run on the very page the host drives.
import { writeFile, mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { browserPath, chromiumArgs, core, now, removeDir, sleep, tempDir, waitFor } from './common.mjs';

const { startHostCore } = await core('host/start-host.js');
const { launchTargetBrowser, openInFreshContext } = await core('targets/chromium-launcher.js');
const { DemoClient } = await core('client/client.js');
const { ToolError } = await core('contract/errors.js');
const { FIXTURE_APP_ID } = await core('contract/fixture-id.js');

export { DemoClient, ToolError, FIXTURE_APP_ID };

/** The browser targets open in, started as the web shell starts it: below the host's CPU priority. */
export async function launchBrowser() {
  return launchTargetBrowser(browserPath, { log: (message) => process.stderr.write(`bench: ${message}\n`) });
}

/** A browser for the person's UI: theirs, which the host does not start or lower. */
export async function launchUiBrowser() {
  return chromium.launch({ executablePath: browserPath, headless: true, args: chromiumArgs });
}

/** A TargetLauncher over `browser` that records each opened page (newest last). */
export function pageRecordingLauncher(browser) {
  const pages = [];
  return {
    pages,
    async open(url) {
      const target = await openInFreshContext(browser, new URL(url).href);
      pages.push({ url, page: target.page, context: target.context });
      return { transport: target.transport, close: () => target.close() };
    },
    // The browser is the bench's; it closes it.
    async close() {},
  };
}

/** Serves generated pages on 127.0.0.1: `pages` maps a path to its HTML. */
export async function servePages(pages) {
  const server = http.createServer((req, res) => {
    const html = pages[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
    if (html === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Starts the host core with `apps` in its catalog (written to settings.json in a temp data
 * folder before start, as a person's settings would be) and a client connected to it.
 */
export async function startBenchHost({ browser, apps = [], fixtures = true, recording = true }) {
  const dataDir = await tempDir('host');
  if (apps.length) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ demoMode: true, apps, deniedApps: [] }));
  }
  const launcher = pageRecordingLauncher(browser);
  const hostCore = await startHostCore({
    dataDir,
    socketPath: path.join(dataDir, 'run', 'agent-demo.sock'),
    fixtures,
    launcher,
    answeredBy: 'bench',
    recording,
  });
  let latest;
  hostCore.host.bridge.subscribe((view) => (latest = view));
  const client = await DemoClient.connect(hostCore.socket.socketPath);
  let agents = 0;

  /** Requests a session, allows it through the bridge, waits until it is armed. */
  async function openSession(appId) {
    const agent = `bench agent ${++agents}`;
    const request = client.call('demo.request', { app: appId, agent_name: agent });
    const prompt = await waitFor(() => (latest?.consent?.agentName === agent ? latest.consent : undefined), 'the consent prompt', 20_000, 1);
    await hostCore.host.bridge.answerConsent(prompt.consentId, 'allow');
    const granted = await request;
    // host.view() is computed afresh: the bridge's pushed view does not always follow arming.
    await waitFor(() => (hostCore.host.view().live.find((s) => s.sessionId === granted.session)?.phase === 'armed' ? true : undefined), 'the session to arm', 30_000, 2);
    const page = launcher.pages.at(-1).page;
    return { ...granted, page };
  }

  return {
    core: hostCore,
    client,
    dataDir,
    launcher,
    view: () => latest,
    openSession,
    async stop() {
      await client.close();
      await hostCore.stop();
      await removeDir(dataDir);
    },
  };
}

/** The contract error code of a failed call, or 'ok'. */
export async function codeOf(promise) {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof ToolError) return error.code;
    throw error;
  }
}

export function find(elements, role, label) {
  const found = elements.find((e) => e.role === role && e.label === label);
  if (!found) throw new Error(`no ${role} "${label}" in the snapshot`);
  return found;
}

export { sleep };

/**
 * Records a fixture session of `acts` acts (type into Name, click Submit, tick Subscribe, in
 * turn), one starting every `paceMs` at most (back to back when an act takes longer), then
 * ends it: a real recording, as an agent at a person's pace makes one. Answers the bundle's
 * id and folder and how long the acts took.
 */
export async function recordFixtureDemo(host, { acts, paceMs, text = (i) => ` step ${i}` }) {
  const session = await host.openSession(FIXTURE_APP_ID);
  const { elements } = await host.client.call('demo.snapshot', { token: session.token });
  const name = find(elements, 'textbox', 'Name');
  const submit = find(elements, 'button', 'Submit');
  const subscribe = find(elements, 'checkbox', 'Subscribe');
  const started = now();
  for (let i = 0; i < acts; i++) {
    const step = [
      { ref: name.ref, op: 'type', text: text(i) },
      { ref: submit.ref, op: 'click' },
      { ref: subscribe.ref, op: 'click' },
    ][i % 3];
    await host.client.call('demo.act', { token: session.token, ...step });
    await sleep(Math.max(0, started + (i + 1) * paceMs - now()));
  }
  const seconds = (now() - started) / 1000;
  const ended = await host.client.call('demo.end', { token: session.token });
  return { bundleId: ended.bundle_id, dir: path.join(host.core.bundles.bundlesDir, ended.bundle_id), seconds };
}
