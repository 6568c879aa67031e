// Where the demo service listens (HOST-SPEC section 1). The host and the client both resolve
// the path here, so `cutright` and `cutright-ctl` meet at the same socket without flags.
import os from 'node:os';
import path from 'node:path';

/** The environment variable that overrides the default path, for the host and the client alike. */
export const SOCKET_ENV_VAR = 'CUTRIGHT_SOCKET';

const SOCKET_FOLDER = 'rightkit';
const SOCKET_FILE = 'agent-demo.sock';

/** An unset and an empty variable mean the same: not given. */
function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value !== '' ? value : undefined;
}

/** `/tmp/rightkit-<uid>/agent-demo.sock`: the per-user fallback when no per-user runtime folder is known. */
function tmpFallback(uid: number | null, username: string): string {
  // Without a uid (not a POSIX process) the user name keeps the folder per-user.
  return path.posix.join('/tmp', `${SOCKET_FOLDER}-${uid ?? username}`, SOCKET_FILE);
}

/**
 * The default socket path for this user and platform:
 * - Linux (and other Unix): `$XDG_RUNTIME_DIR/rightkit/agent-demo.sock`, else `/tmp/rightkit-$UID/agent-demo.sock`;
 * - macOS: `$TMPDIR/rightkit/agent-demo.sock` (`$TMPDIR` is per-user there), else the `/tmp` fallback;
 * - Windows: the named pipe `\\.\pipe\rightkit.agent.demo.<user name>`.
 * Every input is a parameter so that each platform's rule is testable on any machine; `uid`
 * null means the process has none (not POSIX), and the user name then keeps `/tmp` per-user.
 */
export function defaultSocketPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  uid: number | null = process.getuid?.() ?? null,
  username: string = os.userInfo().username,
): string {
  if (platform === 'win32') return `\\\\.\\pipe\\rightkit.agent.demo.${username}`;
  if (platform === 'darwin') {
    const tmpdir = nonEmpty(env['TMPDIR']);
    return tmpdir ? path.posix.join(tmpdir, SOCKET_FOLDER, SOCKET_FILE) : tmpFallback(uid, username);
  }
  const runtimeDir = nonEmpty(env['XDG_RUNTIME_DIR']);
  return runtimeDir ? path.posix.join(runtimeDir, SOCKET_FOLDER, SOCKET_FILE) : tmpFallback(uid, username);
}

/**
 * The path to use: an explicit `--socket PATH`, else `$CUTRIGHT_SOCKET`, else the default.
 * An empty value counts as not given.
 */
export function resolveSocketPath(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  return nonEmpty(explicit) ?? nonEmpty(env[SOCKET_ENV_VAR]) ?? defaultSocketPath(env);
}
