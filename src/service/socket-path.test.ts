import { describe, expect, it } from 'vitest';
import { defaultSocketPath, resolveSocketPath } from './socket-path.js';

describe('defaultSocketPath', () => {
  it('uses $XDG_RUNTIME_DIR on Linux', () => {
    expect(defaultSocketPath({ XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux', 1000, 'ada')).toBe(
      '/run/user/1000/rightkit/agent-demo.sock',
    );
  });

  it('falls back to /tmp/rightkit-$UID on Linux without (or with an empty) $XDG_RUNTIME_DIR', () => {
    expect(defaultSocketPath({}, 'linux', 1234, 'ada')).toBe('/tmp/rightkit-1234/agent-demo.sock');
    expect(defaultSocketPath({ XDG_RUNTIME_DIR: '' }, 'linux', 1234, 'ada')).toBe('/tmp/rightkit-1234/agent-demo.sock');
  });

  it('uses $TMPDIR on macOS, including its trailing slash', () => {
    expect(defaultSocketPath({ TMPDIR: '/var/folders/xy/T/' }, 'darwin', 501, 'ada')).toBe(
      '/var/folders/xy/T/rightkit/agent-demo.sock',
    );
    expect(defaultSocketPath({}, 'darwin', 501, 'ada')).toBe('/tmp/rightkit-501/agent-demo.sock');
  });

  it('uses a per-user named pipe on Windows', () => {
    expect(defaultSocketPath({}, 'win32', null, 'Ada Lovelace')).toBe('\\\\.\\pipe\\rightkit.agent.demo.Ada Lovelace');
  });

  it('keeps the fallback per-user by name when there is no uid', () => {
    expect(defaultSocketPath({}, 'freebsd', null, 'ada')).toBe('/tmp/rightkit-ada/agent-demo.sock');
  });

  it('reads the real process when called without arguments', () => {
    expect(defaultSocketPath()).toMatch(/agent-demo/);
  });
});

describe('resolveSocketPath', () => {
  const env = { CUTRIGHT_SOCKET: '/env/path.sock', XDG_RUNTIME_DIR: '/run/user/7' };

  it('prefers the explicit --socket value', () => {
    expect(resolveSocketPath('/explicit.sock', env)).toBe('/explicit.sock');
  });

  it('uses $CUTRIGHT_SOCKET when there is no explicit value', () => {
    expect(resolveSocketPath(undefined, env)).toBe('/env/path.sock');
    expect(resolveSocketPath('', env)).toBe('/env/path.sock');
  });

  it('falls back to the default, computed from the same environment', () => {
    const expected = defaultSocketPath({ XDG_RUNTIME_DIR: '/run/user/7' });
    expect(resolveSocketPath(undefined, { XDG_RUNTIME_DIR: '/run/user/7', CUTRIGHT_SOCKET: '' })).toBe(expected);
  });
});
