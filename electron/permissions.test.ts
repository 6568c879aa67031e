import { describe, expect, it } from 'vitest';
import { missingPermissionMessage, type PermissionPrefs } from './permissions.js';

type ScreenStatus = ReturnType<PermissionPrefs['getMediaAccessStatus']>;

/** systemPreferences as macOS would answer; records whether anything asked to prompt. */
function prefs(accessibility: boolean, screen: ScreenStatus) {
  const prompts: boolean[] = [];
  const asked: string[] = [];
  const value: PermissionPrefs = {
    isTrustedAccessibilityClient: (prompt) => {
      prompts.push(prompt);
      return accessibility;
    },
    getMediaAccessStatus: (mediaType) => {
      asked.push(mediaType);
      return screen;
    },
  };
  return { value, prompts, asked };
}

describe('missingPermissionMessage', () => {
  it('is null on macOS when both permissions are granted, and never prompts', () => {
    const p = prefs(true, 'granted');
    expect(missingPermissionMessage('darwin', p.value)).toBeNull();
    expect(p.prompts).toEqual([false]);
    expect(p.asked).toEqual(['screen']);
  });

  it('names Accessibility and where to grant it', () => {
    const message = missingPermissionMessage('darwin', prefs(false, 'granted').value);
    expect(message).toMatch(/permission Accessibility/);
    expect(message).toMatch(/System Settings > Privacy & Security > Accessibility/);
    expect(message).not.toMatch(/Screen/);
  });

  it.each(['denied', 'not-determined', 'restricted', 'unknown'] as const)('names Screen Recording when it is %s', (status) => {
    const message = missingPermissionMessage('darwin', prefs(true, status).value);
    expect(message).toMatch(new RegExp(`Screen Recording, now ${status}`));
    expect(message).toMatch(/System Settings > Privacy & Security > Screen & System Audio Recording/);
    expect(message).not.toMatch(/Accessibility/);
  });

  it('names both when both are missing', () => {
    const message = missingPermissionMessage('darwin', prefs(false, 'denied').value, 'CutRight');
    expect(message).toMatch(/^CutRight is missing the macOS permissions Accessibility .* and Screen Recording/);
    expect(message).toMatch(/grant them, quit and reopen CutRight/);
  });

  it('asks nothing on Windows and Linux, which have no such switches', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const p = prefs(false, 'denied');
      expect(missingPermissionMessage(platform, p.value)).toBeNull();
      expect(p.prompts).toEqual([]);
      expect(p.asked).toEqual([]);
    }
  });
});
