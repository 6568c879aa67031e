// The start-up checks and reports both shells print (web shell and Electron app alike).
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostRunningError } from '../instance/host-lock.js';
import { parseLaunchArgs } from './options.js';
import { alreadyRunningReport, readyReport, startupProblem } from './startup.js';

const env = { XDG_RUNTIME_DIR: '/run/user/1000', HOME: '/home/ada' };

describe('start-up, shared by both shells', () => {
  it('refuses --fixtures in a release build and an unbuilt UI', async () => {
    const built = await mkdtemp(path.join(os.tmpdir(), 'cutright-ui-'));
    await writeFile(path.join(built, 'index.html'), '');
    expect(startupProblem(parseLaunchArgs(['--fixtures'], env), built, true)).toMatchObject({ code: 2, message: expect.stringMatching(/--fixtures is not available in a release build/) });
    expect(startupProblem(parseLaunchArgs([], env), path.join(built, 'missing'), false)).toMatchObject({ code: 1, message: expect.stringMatching(/the UI is not built .*npm run build/) });
    expect(startupProblem(parseLaunchArgs(['--fixtures'], env), built, false)).toBeNull();
  });

  it('prints one ready report: a JSON line, or the facts for a person', () => {
    const options = parseLaunchArgs(['--socket', '/tmp/s.sock', '--data-dir', '/tmp/d', '--fixtures'], env);
    const web = readyReport({ options, ui: 'web', uiUrl: 'http://127.0.0.1:1/x/', stopHint: 'Stop demo in the UI' });
    expect(web).toMatch(/^CutRight host is running\.\n {2}Open the UI: {3}http:\/\/127\.0\.0\.1:1\/x\/\n {2}Agent socket: {2}\/tmp\/s\.sock\n {2}Data folder: {3}\/tmp\/d\n {2}Fixture app: {3}app\.orthiclabs\.demo-fixture\n/);
    expect(readyReport({ options, ui: 'electron', uiUrl: null, stopHint: 'Ctrl+Alt+Shift+K' })).toContain('UI:            the CutRight app window');
    const json = readyReport({ options: { ...options, json: true }, ui: 'electron', uiUrl: null, stopHint: '' });
    expect(JSON.parse(json)).toEqual({ ready: true, socket: '/tmp/s.sock', ui_url: null, data_dir: '/tmp/d' });
  });

  it('a refused start names the running host, as JSON with --json', () => {
    const running = { pid: 42, proc_start: null, data_dir: '/tmp/d', socket: '/tmp/s.sock', ui: 'web' as const, ui_url: 'http://127.0.0.1:1/x/', started_at: '' };
    const error = new HostRunningError('data folder', running, '/tmp/d');
    expect(alreadyRunningReport(error, false)).toEqual({ stdout: null, stderr: expect.stringMatching(/pid 42, socket \/tmp\/s\.sock, UI http:\/\/127\.0\.0\.1:1\/x\/; nothing was changed/) });
    const json = JSON.parse(alreadyRunningReport(error, true).stdout!);
    expect(json).toMatchObject({ ready: false, already_running: { pid: 42, socket: '/tmp/s.sock', ui_url: 'http://127.0.0.1:1/x/', data_dir: '/tmp/d' } });
  });
});
