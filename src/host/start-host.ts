// Starts the host's core, the same way for both shells: settings, bundles (sealing what a
// crash left open), the fixture app when fixtures are on, the host itself and its socket.
// The shell supplies only what differs: how targets are opened, and who answers consent.
import { mkdir } from 'node:fs/promises';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { openBundleStore, type BundleStore } from '../bundle/index.js';
import { startSocketServer, type SocketServer } from '../service/server.js';
import { acquireHostLock, type HostLock } from '../instance/host-lock.js';
import { SettingsStore } from '../settings/settings-store.js';
import { createCdpDriver } from '../targets/cdp-driver.js';
import type { TargetLauncher } from '../targets/types.js';
import type { AppEntry } from '../settings/settings.js';
import type { OpenRenderTarget } from '../export/render-page.js';
import type { RevealFolder } from './bundle-actions.js';
import { createHost, type Host } from './host.js';

export interface HostCoreOptions {
  dataDir: string;
  socketPath: string;
  fixtures: boolean;
  launcher: TargetLauncher;
  answeredBy: string;
  /** Shows a folder in the file manager (Electron's shell); default: the platform's opener. */
  revealFolder?: RevealFolder;
  log?: (message: string) => void;
  /** Continuous recording and the live view; default on (off only to measure what they cost). */
  recording?: boolean;
  /** Opens the page video and GIF exports are drawn in (Electron's hidden window); default: the launcher's hidden blank page. */
  openRenderTarget?: OpenRenderTarget;
}

export interface HostCore {
  host: Host;
  bundles: BundleStore;
  socket: SocketServer;
  settings: SettingsStore;
  /** This host's hold on the data folder; the shell publishes its UI in it. */
  lock: HostLock;
  /** Bundles a crash had left unsealed, sealed `killed` at this start. */
  recovered: string[];
  /** Ends live sessions as killed, seals their bundles, closes the socket and the fixture. */
  stop(): Promise<void>;
}

export async function startHostCore(options: HostCoreOptions): Promise<HostCore> {
  const log = options.log ?? (() => {});
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  // Before anything else reads or writes the folder: a second host changes nothing.
  const lock = await acquireHostLock({ dataDir: options.dataDir, socketPath: options.socketPath, log });
  try {
    return await startLocked(options, lock, log);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function startLocked(options: HostCoreOptions, lock: HostLock, log: (message: string) => void): Promise<HostCore> {
  const settings = await SettingsStore.open(options.dataDir, [FIXTURE_APP_ID]);
  const bundles = await openBundleStore({ dataDir: options.dataDir, log });
  const recovered = await bundles.recoverUnsealed();
  for (const id of recovered) log(`sealed bundle ${id} as killed: the host had stopped while it was open (host crash)`);

  let fixture: AppEntry | undefined;
  let fixtureServer: { url: string; close(): Promise<void> } | undefined;
  if (options.fixtures) {
    // Loaded only when asked for: a release build ships without the fixture (HOST-SPEC section 6).
    const { startFixtureServer, FIXTURE_APP_NAME } = await import('../targets/fixture/fixture-server.js');
    fixtureServer = await startFixtureServer();
    fixture = { id: FIXTURE_APP_ID, name: FIXTURE_APP_NAME, url: fixtureServer.url, allowedOrigins: [new URL(fixtureServer.url).origin] };
  }

  const host = createHost({
    settings,
    bundles,
    launcher: options.launcher,
    createDriver: (target, app) => createCdpDriver(target.transport, { allowedOrigins: app.allowedOrigins }),
    ...(fixture ? { fixture } : {}),
    answeredBy: options.answeredBy,
    ...(options.revealFolder ? { revealFolder: options.revealFolder } : {}),
    log,
    ...(options.recording !== undefined ? { recording: options.recording } : {}),
    ...(options.openRenderTarget ? { openRenderTarget: options.openRenderTarget } : {}),
  });
  let socket: SocketServer;
  try {
    socket = await startSocketServer({ socketPath: options.socketPath, handler: host, log });
  } catch (error) {
    await host.shutdown();
    await fixtureServer?.close();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    host,
    bundles,
    socket,
    settings,
    lock,
    recovered,
    stop() {
      stopping ??= (async () => {
        await host.shutdown();
        await socket.close();
        await fixtureServer?.close();
        await lock.release();
      })();
      return stopping;
    },
  };
}
