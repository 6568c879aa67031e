// Stopping every live demo at once: the global shortcut and the tray's Stop demo.
import type { Host } from '../src/host/host.js';

/**
 * The global shortcut that stops every live demo, registered while the app runs:
 * Ctrl+Alt+Shift+K on Windows and Linux, Cmd+Option+Shift+K on macOS ("K" for kill).
 * Chosen because the OS does not reserve it (Ctrl+Shift+Esc opens the Windows Task Manager,
 * Cmd+Option+Esc is macOS's Force Quit) and no common app binds all four keys.
 */
export const KILL_SHORTCUT = 'CommandOrControl+Alt+Shift+K';
/** The same, as people read it. */
export const KILL_SHORTCUT_LABEL = process.platform === 'darwin' ? 'Cmd+Option+Shift+K' : 'Ctrl+Alt+Shift+K';

/** Kills every live session (sealing each bundle `killed`); resolves with how many there were. */
export async function killAllLive(host: Pick<Host, 'view' | 'kill'>): Promise<number> {
  const live = host.view().live;
  await Promise.all(live.map((session) => host.kill(session.sessionId, 'kill control')));
  return live.length;
}
