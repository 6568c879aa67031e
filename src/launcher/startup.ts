// What both shells (the web shell in src/launcher/cutright.ts, the Electron app in
// electron/main.ts) check before starting and print once started or refused: one wording, one
// JSON shape, whichever shell runs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import { RELEASE_BUILD } from './build-flavor.js';
import type { HostRunningError } from '../instance/host-lock.js';
import type { LaunchOptions } from './options.js';

/** Exit code of a start refused because a host already runs with the same data folder or socket. */
export const EXIT_ALREADY_RUNNING = 3;

export interface StartupProblem {
  message: string;
  /** 2: the command line asked for something this build cannot do; 1: the installation is incomplete. */
  code: 1 | 2;
}

/** Why this start cannot go on, before anything is touched; null when it can. */
export function startupProblem(options: LaunchOptions, rendererDir: string, releaseBuild: boolean = RELEASE_BUILD): StartupProblem | null {
  if (options.fixtures && releaseBuild) {
    return { message: '--fixtures is not available in a release build (the fixture app ships only in development and test builds)', code: 2 };
  }
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    return { message: `the UI is not built (${rendererDir} is missing): run \`npm run build\` first`, code: 1 };
  }
  return null;
}

export interface ReadyFacts {
  options: LaunchOptions;
  ui: 'web' | 'electron';
  /** The web shell's URL; null in the Electron app. */
  uiUrl: string | null;
  /** How to stop every demo in this shell, e.g. the Electron app's shortcut. */
  stopHint: string;
}

/** The line(s) printed on stdout once the host is ready: one JSON line with --json. */
export function readyReport({ options, ui, uiUrl, stopHint }: ReadyFacts): string {
  if (options.json) return JSON.stringify({ ready: true, socket: options.socketPath, ui_url: uiUrl, data_dir: options.dataDir });
  return [
    'CutRight host is running.',
    ui === 'web' ? `  Open the UI:   ${uiUrl}` : '  UI:            the CutRight app window',
    `  Agent socket:  ${options.socketPath}`,
    `  Data folder:   ${options.dataDir}`,
    options.fixtures ? `  Fixture app:   ${FIXTURE_APP_ID}` : '',
    `  Stop every demo: ${stopHint}.`,
    'Press Ctrl+C to stop the host (live sessions end as killed, their bundles sealed).',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * What a start refused because a host already runs prints: with --json one line on stdout
 * (`{"ready":false,"already_running":{pid,socket,ui_url,data_dir}}`), else a sentence for stderr.
 */
export function alreadyRunningReport(error: HostRunningError, json: boolean): { stdout: string | null; stderr: string | null } {
  if (!json) return { stdout: null, stderr: error.message };
  const running = error.running;
  return {
    stdout: JSON.stringify({
      ready: false,
      error: error.message,
      already_running: running && { pid: running.pid, socket: running.socket, ui_url: running.ui_url, data_dir: running.data_dir },
    }),
    stderr: null,
  };
}
