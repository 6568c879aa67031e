// Opens and closes the two small windows from the host's view: the consent dialog while a
// consent question is open (closing it denies), and the kill control while any session is
// live (from the moment consent is given until the session ends). Window creation is passed
// in, so this runs in plain Node tests.
import type { HostView } from '../src/ui-protocol/index.js';

/** What the controller uses of a BrowserWindow. */
export interface PopupWindow {
  isDestroyed(): boolean;
  destroy(): void;
  focus(): void;
  once(event: 'closed', listener: () => void): unknown;
}

export type PopupRole = 'consent' | 'kill';

export interface PopupWindowsOptions {
  /** Creates, guards, loads and shows the window for `role` (main.ts). */
  openWindow(role: PopupRole): PopupWindow;
  /** The bridge's answerConsent: closing the dialog is a Deny. */
  answerConsent(consentId: string, answer: 'deny'): Promise<void>;
  log?: (message: string) => void;
}

export interface PopupWindows {
  /** Brings the windows in line with `view`; call on every view. */
  update(view: HostView): void;
  /** Closes both windows (quitting). */
  closeAll(): void;
  /** The open window for a role, if any. */
  window(role: PopupRole): PopupWindow | null;
}

export function createPopupWindows(options: PopupWindowsOptions): PopupWindows {
  const log = options.log ?? (() => {});
  let consent: { window: PopupWindow; consentId: string } | null = null;
  let kill: PopupWindow | null = null;
  let lastView: HostView | null = null;
  let closingAll = false;
  // Windows this controller destroys itself; their 'closed' is not the person's doing.
  const closingOurselves = new WeakSet<PopupWindow>();

  const dispose = (window: PopupWindow) => {
    closingOurselves.add(window);
    if (!window.isDestroyed()) window.destroy();
  };

  function openConsent(consentId: string): void {
    const window = options.openWindow('consent');
    consent = { window, consentId };
    window.once('closed', () => {
      const current = consent;
      if (current?.window === window) consent = null;
      if (closingOurselves.has(window) || !current || current.window !== window) return;
      // The person closed the dialog: that is a Deny (HOST-SPEC section 3).
      options.answerConsent(current.consentId, 'deny').catch((error: unknown) => log(`closing the consent dialog could not deny: ${(error as Error).message}`));
    });
  }

  function openKill(): void {
    const window = options.openWindow('kill');
    kill = window;
    window.once('closed', () => {
      if (kill === window) kill = null;
      if (closingOurselves.has(window) || closingAll) return;
      // The kill control must stay reachable while a session is live: put it back.
      log('the kill control was closed while a session is live; reopening it');
      if (lastView) update(lastView);
    });
  }

  function update(view: HostView): void {
    lastView = view;
    if (closingAll) return;
    if (view.consent) {
      if (!consent || consent.window.isDestroyed()) openConsent(view.consent.consentId);
      else if (consent.consentId !== view.consent.consentId) {
        // The next request in the queue: same window, new question, in front again.
        consent.consentId = view.consent.consentId;
        consent.window.focus();
      }
    } else if (consent) {
      const { window } = consent;
      consent = null;
      dispose(window);
    }

    if (view.live.length > 0) {
      if (!kill || kill.isDestroyed()) openKill();
    } else if (kill) {
      const window = kill;
      kill = null;
      dispose(window);
    }
  }

  return {
    update,
    closeAll() {
      closingAll = true;
      if (consent) dispose(consent.window);
      if (kill) dispose(kill);
      consent = null;
      kill = null;
    },
    window(role) {
      return role === 'consent' ? (consent?.window ?? null) : kill;
    },
  };
}
