import { describe, expect, it } from 'vitest';
import { parseLaunchArgs } from '../src/launcher/options.js';
import { cutrightArgv } from './launch-args.js';

describe('cutrightArgv', () => {
  it('takes what follows the app path in development', () => {
    expect(cutrightArgv(['/x/electron', 'dist/electron/main.js', '--fixtures', '--socket', '/tmp/s.sock'], false)).toEqual(['--fixtures', '--socket', '/tmp/s.sock']);
  });

  it("skips Electron's own switches before the app path (Playwright's _electron.launch adds some)", () => {
    expect(cutrightArgv(['/x/electron', '--inspect=0', '--remote-debugging-port=0', '/app/dist/electron/main.js', '--json'], false)).toEqual(['--json']);
  });

  it('takes everything after the executable when packaged', () => {
    expect(cutrightArgv(['/Applications/CutRight.app/Contents/MacOS/CutRight', '--data-dir', '/d'], true)).toEqual(['--data-dir', '/d']);
  });

  it('drops --ui (this is the Electron shell already) and engine switches, keeps the rest for parseLaunchArgs', () => {
    const argv = cutrightArgv(['CutRight', '--ui', 'electron', '--no-sandbox', '-psn_0_12345', '--ui=electron', '--port=0', '--json'], true);
    expect(argv).toEqual(['--port=0', '--json']);
    expect(parseLaunchArgs(argv, {}).json).toBe(true);
  });

  it('leaves unknown arguments for parseLaunchArgs to refuse by name', () => {
    const argv = cutrightArgv(['CutRight', '--frobnicate'], true);
    expect(() => parseLaunchArgs(argv, {})).toThrow(/unknown argument "--frobnicate"/);
  });

  it('has nothing when no app path was given', () => {
    expect(cutrightArgv(['/x/electron', '--version'], false)).toEqual([]);
  });
});
