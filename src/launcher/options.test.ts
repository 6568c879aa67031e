import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary } from './electron-binary.js';
import { defaultDataDir, LaunchUsageError, parseLaunchArgs } from './options.js';

const env = { XDG_RUNTIME_DIR: '/run/user/1000', HOME: '/home/ada' };

describe('launcher options', () => {
  it('has sensible defaults', () => {
    const options = parseLaunchArgs([], env);
    expect(options).toMatchObject({ ui: undefined, socketPath: '/run/user/1000/rightkit/agent-demo.sock', port: 0, fixtures: false, json: false });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    const options = parseLaunchArgs(['--ui', 'web', '--socket=/tmp/s.sock', '--data-dir', 'data', '--port', '8080', '--fixtures', '--browser', '/usr/bin/chromium', '--json'], env);
    expect(options).toEqual({
      ui: 'web',
      socketPath: '/tmp/s.sock',
      dataDir: path.resolve('data'),
      port: 8080,
      fixtures: true,
      browser: '/usr/bin/chromium',
      json: true,
    });
  });

  it('takes CUTRIGHT_SOCKET, CUTRIGHT_DATA_DIR, CUTRIGHT_FIXTURES and CUTRIGHT_BROWSER from the environment', () => {
    const options = parseLaunchArgs([], { ...env, CUTRIGHT_SOCKET: '/tmp/x.sock', CUTRIGHT_DATA_DIR: '/tmp/d', CUTRIGHT_FIXTURES: '1', CUTRIGHT_BROWSER: '/opt/chrome' });
    expect(options).toMatchObject({ socketPath: '/tmp/x.sock', dataDir: '/tmp/d', fixtures: true, browser: '/opt/chrome' });
  });

  it.each([
    [['--ui', 'tty'], /--ui must be electron or web/],
    [['--port', '70000'], /--port must be a port number/],
    [['--port', 'x'], /--port must be a port number/],
    [['--socket'], /--socket needs a value/],
    [['--verbose'], /unknown argument "--verbose"/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseLaunchArgs(argv, env)).toThrow(LaunchUsageError);
    expect(() => parseLaunchArgs(argv, env)).toThrow(message);
  });

  it('puts data in the platform user data folder', () => {
    expect(defaultDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.local/share/cutright');
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, 'linux', '/home/ada')).toBe('/xdg/cutright');
    expect(defaultDataDir({}, 'darwin', '/Users/ada')).toBe('/Users/ada/Library/Application Support/CutRight');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ada')).toContain('CutRight');
  });
});

describe('Electron binary detection', () => {
  it('finds no binary when node_modules/electron/dist is missing (as on these machines)', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'cutright-el-'));
    await mkdir(path.join(root, 'node_modules', 'electron'), { recursive: true });
    expect(findElectronBinary({}, root)).toBeUndefined();
  });

  it('finds the binary named by path.txt under dist, or under ELECTRON_OVERRIDE_DIST_PATH', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'cutright-el-'));
    const electronDir = path.join(root, 'node_modules', 'electron');
    await mkdir(path.join(electronDir, 'dist'), { recursive: true });
    await writeFile(path.join(electronDir, 'path.txt'), 'electron');
    expect(findElectronBinary({}, root)).toBeUndefined();
    await writeFile(path.join(electronDir, 'dist', 'electron'), '');
    expect(findElectronBinary({}, root)).toBe(path.join(electronDir, 'dist', 'electron'));
    const override = await mkdtemp(path.join(os.tmpdir(), 'cutright-el-override-'));
    await writeFile(path.join(override, 'electron'), '');
    expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: override }, root)).toBe(path.join(override, 'electron'));
  });
});
