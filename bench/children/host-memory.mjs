// The host's core with the web shell and no target open, in its own process, for the memory
// figure. The catalog holds one cheap page (served by the bench) for the sessions to arm on;
// consent is answered "allow" through the host's bridge, as the web shell's button does.
//   node --expose-gc host-memory.mjs <cheap page URL> <renderer dir>
import { mkdir, writeFile } from 'node:fs/promises';
import inspector from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';
import { core, removeDir, serveParent, settledMemory, tempDir } from '../lib/common.mjs';

const [pageUrl, rendererDir] = process.argv.slice(2);
const { startHostCore } = await core('host/start-host.js');
const { startWebShell } = await core('shell/web/web-shell.js');
// Loaded as the launcher (src/launcher/cutright.ts) loads it, so the idle figure carries its
// cost; the sessions open their targets through the shared-context launcher (see there why).
await core('targets/chromium-launcher.js');
const { sharedContextLauncher } = await import('../lib/shared-context-launcher.mjs');

const dataDir = await tempDir('mem-host');
const origin = new URL(pageUrl).origin;
await mkdir(dataDir, { recursive: true, mode: 0o700 });
await writeFile(
  path.join(dataDir, 'settings.json'),
  JSON.stringify({ demoMode: true, apps: [{ id: 'bench.cheap', name: 'Cheap page', url: pageUrl, allowedOrigins: [origin] }], deniedApps: [] }),
);
const hostCore = await startHostCore({
  dataDir,
  socketPath: path.join(dataDir, 'run', 'agent-demo.sock'),
  fixtures: false,
  launcher: sharedContextLauncher(),
  answeredBy: 'bench (bridge)',
});
const shell = await startWebShell({ host: hostCore.host, bundles: hostCore.bundles, rendererDir });
hostCore.host.setOwnOrigins([shell.origin]);

let autoAllow = false;
// Only the latest id is kept: the bench must not grow the process it measures.
let lastAnswered;
hostCore.host.bridge.subscribe((view) => {
  const consent = view.consent;
  if (!autoAllow || !consent || consent.consentId === lastAnswered) return;
  lastAnswered = consent.consentId;
  void hostCore.host.bridge.answerConsent(consent.consentId, 'allow').catch(() => {});
});

serveParent(
  { socketPath: hostCore.socket.socketPath },
  {
    memory: async () => {
      return { ...(await settledMemory()), connections: hostCore.socket.connectionCount, live: hostCore.host.view().live.length };
    },
    // Node 20's heap snapshot finds each function's line by scanning its script from the start
    // unless the script's line ends are known: with playwright-core's 3.6 MB bundle that takes
    // 30 s. Switching the debugger on and off computes them for every script (about 2 MB of
    // heap, kept), after which a snapshot takes about a second.
    prepareHeapSnapshots: async () => {
      const session = new inspector.Session();
      session.connect();
      const post = (method) => new Promise((resolve, reject) => session.post(method, (error) => (error ? reject(error) : resolve())));
      try {
        await post('Debugger.enable');
        await post('Debugger.disable');
      } finally {
        session.disconnect();
      }
    },
    // A heap snapshot (written after two full collections) for the parent to compare objects.
    heapSnapshot: async ({ file }) => {
      await settledMemory();
      v8.writeHeapSnapshot(file);
      return { file };
    },
    autoAllow: async ({ on }) => {
      autoAllow = on;
    },
  },
);
process.on('SIGTERM', async () => {
  await hostCore.stop();
  await shell.close();
  await removeDir(dataDir);
  process.exit(0);
});
