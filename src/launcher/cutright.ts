// `cutright`: starts the host in the Electron shell or the web shell (HOST-SPEC section 4),
// and the `cutright bundle ...` and `cutright open` commands.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startHostCore, type HostCore } from '../host/start-host.js';
import { startWebShell, type WebShell } from '../shell/web/web-shell.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import { runBundleCommand } from './bundle-command.js';
import { ELECTRON_MISSING, findElectronBinary, projectRoot } from './electron-binary.js';
import { HostRunningError } from '../instance/host-lock.js';
import { runOpenCommand } from './open-command.js';
import { LAUNCH_USAGE, LaunchUsageError, parseLaunchArgs, type LaunchOptions } from './options.js';
import { EXIT_ALREADY_RUNNING, alreadyRunningReport, readyReport, startupProblem } from './startup.js';
import { terminalSafe } from './terminal-text.js';

export interface LauncherIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const say = (stream: NodeJS.WritableStream, text: string) => stream.write(text.endsWith('\n') ? text : text + '\n');

export async function main(argv: string[], io: LauncherIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  if (argv[0] === 'bundle') return runBundleCommand(argv.slice(1), io);
  if (argv[0] === 'open') return runOpenCommand(argv.slice(1), io);
  if (argv.includes('--help') || argv.includes('-h')) {
    say(io.stdout, LAUNCH_USAGE);
    return 0;
  }
  let options: LaunchOptions;
  try {
    options = parseLaunchArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof LaunchUsageError)) throw error;
    say(io.stderr, `cutright: ${error.message}\n${LAUNCH_USAGE}`);
    return 2;
  }

  const electron = findElectronBinary(io.env);
  let ui = options.ui;
  if (ui === undefined) {
    ui = electron ? 'electron' : 'web';
    if (!options.json) say(io.stderr, electron ? 'cutright: starting the Electron app' : `cutright: ${ELECTRON_MISSING}; starting the web UI instead`);
  }
  if (ui === 'electron') {
    if (!electron) {
      say(io.stderr, `cutright: --ui electron: ${ELECTRON_MISSING}. Run \`npm run electron:install\` where downloads are allowed, or use --ui web.`);
      return 1;
    }
    return runElectron(electron, argv, io);
  }
  return runWebShell(options, io);
}

/** Hands the same arguments to Electron's main process (electron/main.ts) and waits for it. */
function runElectron(binary: string, argv: string[], io: LauncherIo): Promise<number> {
  const main = path.join(projectRoot, 'dist', 'electron', 'main.js');
  if (!existsSync(main)) {
    say(io.stderr, `cutright: ${main} is missing: run \`npm run build\` first`);
    return Promise.resolve(1);
  }
  const child = spawn(binary, [main, ...argv.filter((a) => !a.startsWith('--ui'))], { stdio: 'inherit', env: io.env });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

async function runWebShell(options: LaunchOptions, io: LauncherIo): Promise<number> {
  const rendererDir = path.join(projectRoot, 'dist', 'renderer');
  const problem = startupProblem(options, rendererDir);
  if (problem) {
    say(io.stderr, `cutright: ${problem.message}`);
    return problem.code;
  }
  // Host messages may quote what an agent sent: shown, never obeyed by the terminal.
  const log = (message: string) => say(io.stderr, `cutright: ${terminalSafe(message)}`);
  let core: HostCore;
  try {
    core = await startHostCore({
      dataDir: options.dataDir,
      socketPath: options.socketPath,
      fixtures: options.fixtures,
      launcher: createChromiumLauncher({ ...(options.browser ? { executablePath: options.browser } : {}), log }),
      answeredBy: 'local user in the web shell',
      log,
    });
  } catch (error) {
    if (error instanceof HostRunningError) {
      const report = alreadyRunningReport(error, options.json);
      if (report.stdout) say(io.stdout, report.stdout);
      if (report.stderr) say(io.stderr, `cutright: ${report.stderr}`);
      return EXIT_ALREADY_RUNNING;
    }
    say(io.stderr, `cutright: ${(error as Error).message}`);
    return 1;
  }
  let shell: WebShell;
  try {
    shell = await startWebShell({ host: core.host, bundles: core.bundles, rendererDir, port: options.port, log });
  } catch (error) {
    await core.stop();
    say(io.stderr, `cutright: could not serve the UI: ${(error as Error).message}`);
    return 1;
  }
  core.host.setOwnOrigins([shell.origin]);

  // Without it a refused second start cannot name this UI; the host itself is fine.
  await core.lock.publish('web', shell.url).catch((error: unknown) => log(`could not record the UI URL in the data folder's lock: ${(error as Error).message}`));
  say(io.stdout, readyReport({ options, ui: 'web', uiUrl: shell.url, stopHint: 'Stop demo in the UI' }));

  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      if (!options.json) say(io.stderr, `cutright: ${signal}: ending live sessions and sealing their bundles`);
      void (async () => {
        await core.stop();
        await shell.close();
        resolve(0);
      })();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
