// Getting the person's attention and keeping them told: the page title and a notification
// when consent is asked, the kill shortcut, and a live region that reads out session changes.
import { useEffect, useRef, useState } from 'react';
import type { ConsentPrompt, LiveSession } from '../../src/ui-protocol/index.js';
import { announcements } from './announce.js';
import { shortText } from './display-text.js';
import { isKillShortcut } from './kill-shortcut.js';
import { useUi } from './store-context.js';

/** The page title while consent is asked, so a background tab shows it. */
export const ASKING_TITLE = 'Allow a demo? · CutRight';

/** Title and (where the person allowed them) a notification while a consent question is open. */
export function useConsentAttention(consent: ConsentPrompt | null, enabled: boolean): void {
  const consentId = consent?.consentId ?? null;
  const latest = useRef(consent);
  latest.current = consent;
  useEffect(() => {
    const asking = latest.current;
    if (!enabled || consentId === null || !asking) return;
    const before = document.title;
    document.title = ASKING_TITLE;
    let note: Notification | null = null;
    if (typeof Notification === 'function' && Notification.permission === 'granted') {
      note = new Notification('CutRight: allow a demo session?', {
        body: `An agent claiming to be "${shortText(asking.agentName, 40)}" asks to drive ${shortText(asking.appName, 40)}.`,
        tag: 'cutright-consent',
        requireInteraction: true,
      });
      note.onclick = () => window.focus();
    }
    return () => {
      document.title = before;
      note?.close();
    };
  }, [consentId, enabled]);
}

/** The kill shortcut while the page has the focus: ends every live session. */
export function useKillShortcut(stopAll: () => void, mac: boolean): void {
  const stop = useRef(stopAll);
  stop.current = stopAll;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!isKillShortcut(event, mac)) return;
      event.preventDefault();
      stop.current();
    };
    // Capture: nothing in the page (the consent dialog's trap included) can swallow it first.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [mac]);
}

const EMPTY: LiveSession[] = [];

/** A polite live region: session started, recording, each new step, ended. */
export function LiveAnnouncer() {
  const live = useUi((s) => s.view?.live ?? null);
  const [message, setMessage] = useState('');
  const previous = useRef<LiveSession[] | null>(null);
  useEffect(() => {
    if (live === null) return;
    const said = announcements(previous.current, live ?? EMPTY);
    previous.current = live;
    if (said.length > 0) setMessage(said.join(' '));
  }, [live]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="announcer">
      {message}
    </div>
  );
}
