import { describe, expect, it } from 'vitest';
import { isKillShortcut, killShortcutText } from './kill-shortcut.js';

const keys = { code: 'KeyK', ctrlKey: true, metaKey: false, altKey: true, shiftKey: true };

describe('the kill shortcut (CommandOrControl+Alt+Shift+K, as in Electron)', () => {
  it('is Ctrl+Alt+Shift+K off a Mac and Cmd+Option+Shift+K on one', () => {
    expect(isKillShortcut(keys, false)).toBe(true);
    expect(isKillShortcut(keys, true)).toBe(false);
    expect(isKillShortcut({ ...keys, ctrlKey: false, metaKey: true }, true)).toBe(true);
  });
  it('needs every modifier and the K key', () => {
    for (const off of ['ctrlKey', 'altKey', 'shiftKey'] as const) expect(isKillShortcut({ ...keys, [off]: false }, false)).toBe(false);
    expect(isKillShortcut({ ...keys, code: 'KeyJ' }, false)).toBe(false);
  });
  it('is spelled for the button and for aria-keyshortcuts', () => {
    expect(killShortcutText(false)).toEqual({ label: 'Ctrl+Alt+Shift+K', aria: 'Control+Alt+Shift+K' });
    expect(killShortcutText(true).aria).toBe('Meta+Alt+Shift+K');
  });
});
