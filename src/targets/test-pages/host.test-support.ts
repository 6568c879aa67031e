// A real host core whose catalog holds the given apps (written to settings.json before start,
// as a person's settings would be), with a client on its socket and consent answered through
// the host's bridge, as the UI does. For the targets' tests that drive pages through the host.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DemoClient } from '../../client/client.js';
import { KeepingLauncher, armedSnapshot, waitFor } from '../../host/harness.test-support.js';
import { startHostCore, type HostCore } from '../../host/start-host.js';
import { createChromiumLauncher } from '../chromium-launcher.js';
import type { OpenedTarget } from '../types.js';

export interface App {
  id: string;
  name: string;
  url: string;
  allowedOrigins: string[];
}

export interface HostWithApps {
  core: HostCore;
  client: DemoClient;
  /** Requests a session of `appId`, allows it, waits until it is armed. */
  openSession(appId: string): Promise<{ token: string; session: string; target: OpenedTarget }>;
  stop(): Promise<void>;
}

export async function startHostWithApps(apps: App[]): Promise<HostWithApps> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-targets-'));
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ demoMode: true, apps, deniedApps: [] }));
  const launcher = new KeepingLauncher(createChromiumLauncher());
  const core = await startHostCore({ dataDir, socketPath: path.join(dataDir, 'run', 'agent-demo.sock'), fixtures: false, launcher, answeredBy: 'targets test' });
  const client = await DemoClient.connect(core.socket.socketPath);
  let agents = 0;
  return {
    core,
    client,
    async openSession(appId) {
      const agent = `targets test agent ${++agents}`;
      const request = client.call('demo.request', { app: appId, agent_name: agent });
      const prompt = await waitFor(() => {
        const consent = core.host.view().consent;
        return consent?.agentName === agent ? consent : undefined;
      }, 'the consent prompt');
      await core.host.bridge.answerConsent(prompt.consentId, 'allow');
      const granted = await request;
      await armedSnapshot(client, granted.token);
      return { token: granted.token, session: granted.session, target: launcher.last };
    },
    async stop() {
      await client.close();
      await core.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
