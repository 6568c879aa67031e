// The host's core (settings, bundles, the socket service) in its own process, for the socket
// figure: the client process talks to it exactly as an agent would.
import path from 'node:path';
import { core, serveParent, tempDir, removeDir } from '../lib/common.mjs';

const { startHostCore } = await core('host/start-host.js');
const { createChromiumLauncher } = await core('targets/chromium-launcher.js');

const dataDir = await tempDir('rtt-host');
const host = await startHostCore({
  dataDir,
  socketPath: path.join(dataDir, 'run', 'agent-demo.sock'),
  fixtures: true,
  // Never opened here: demo.apps needs no target.
  launcher: createChromiumLauncher(),
  answeredBy: 'bench',
});
serveParent({ socketPath: host.socket.socketPath, pid: process.pid }, {});
process.on('SIGTERM', async () => {
  await host.stop();
  await removeDir(dataDir);
  process.exit(0);
});
