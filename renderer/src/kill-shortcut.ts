// The kill shortcut, the same keys as Electron's global one (CommandOrControl+Alt+Shift+K):
// in the web shell it works while the page has the focus (a page cannot have a global one).

export interface ShortcutText {
  /** As shown on the button. */
  label: string;
  /** As `aria-keyshortcuts` spells it. */
  aria: string;
}

export function isMac(platform: string): boolean {
  return /^mac/i.test(platform);
}

export function killShortcutText(mac: boolean): ShortcutText {
  return mac ? { label: '⌘⌥⇧K', aria: 'Meta+Alt+Shift+K' } : { label: 'Ctrl+Alt+Shift+K', aria: 'Control+Alt+Shift+K' };
}

/** The keys pressed, as a KeyboardEvent has them. `code` so Option's special characters on a Mac do not matter. */
export interface Keys {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export function isKillShortcut(keys: Keys, mac: boolean): boolean {
  const command = mac ? keys.metaKey && !keys.ctrlKey : keys.ctrlKey && !keys.metaKey;
  return command && keys.altKey && keys.shiftKey && keys.code === 'KeyK';
}
