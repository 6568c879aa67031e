import { describe, expect, it } from 'vitest';
import { KILL_SHORTCUT } from './kill-all.js';

describe('the kill shortcut', () => {
  it('uses a shortcut the OS does not reserve', () => {
    expect(KILL_SHORTCUT).toBe('CommandOrControl+Alt+Shift+K');
    expect(KILL_SHORTCUT).not.toMatch(/Escape|Esc/);
  });
});
