// macOS privacy permissions a demo needs before a session arms (HOST-SPEC section 2, check 5):
// Accessibility, to drive input on the person's behalf, and Screen Recording, to take the
// pictures. Other platforms have no such switches (see docs/). systemPreferences is passed in
// so this runs in plain Node tests.
import type { SystemPreferences } from 'electron';

export type PermissionPrefs = Pick<SystemPreferences, 'isTrustedAccessibilityClient' | 'getMediaAccessStatus'>;

const SETTINGS_PATH = 'System Settings > Privacy & Security';

/**
 * null when every permission is there (or the platform has none to grant); otherwise a
 * message naming each missing permission and where to grant it. Never prompts: the message
 * tells the person what to do, the agent gets it as `permission_missing`.
 */
export function missingPermissionMessage(platform: NodeJS.Platform, prefs: PermissionPrefs, appName = 'CutRight'): string | null {
  if (platform !== 'darwin') return null;
  const missing: string[] = [];
  if (!prefs.isTrustedAccessibilityClient(false)) {
    missing.push(`Accessibility (${SETTINGS_PATH} > Accessibility: turn on ${appName})`);
  }
  const screen = prefs.getMediaAccessStatus('screen');
  if (screen !== 'granted') {
    missing.push(
      `Screen Recording, now ${screen} (${SETTINGS_PATH} > Screen & System Audio Recording, called Screen Recording before macOS 15: turn on ${appName})`,
    );
  }
  if (missing.length === 0) return null;
  return `${appName} is missing the macOS permission${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}; grant ${missing.length > 1 ? 'them' : 'it'}, quit and reopen ${appName}, then request the demo again.`;
}
