// The global shortcut that stops every live demo at once (the host's killAll does the stopping).

/**
 * The global shortcut that stops every live demo, registered while the app runs:
 * Ctrl+Alt+Shift+K on Windows and Linux, Cmd+Option+Shift+K on macOS ("K" for kill).
 * Chosen because the OS does not reserve it (Ctrl+Shift+Esc opens the Windows Task Manager,
 * Cmd+Option+Esc is macOS's Force Quit) and no common app binds all four keys.
 */
export const KILL_SHORTCUT = 'CommandOrControl+Alt+Shift+K';
/** The same, as people read it. */
export const KILL_SHORTCUT_LABEL = process.platform === 'darwin' ? 'Cmd+Option+Shift+K' : 'Ctrl+Alt+Shift+K';
