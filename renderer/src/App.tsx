import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { UiBridge } from './bridge/index.js';
import { LiveAnnouncer, useConsentAttention, useKillShortcut } from './attention.js';
import { shortText } from './display-text.js';
import { describeReason } from './format.js';
import { isMac, killShortcutText } from './kill-shortcut.js';
import type { AppLayout } from './layout.js';
import { useUi } from './store-context.js';
import { ConsentContainer, KillControlsContainer, LiveViewsContainer, SessionsContainer, SettingsContainer } from './views/containers.js';

export type { AppLayout };

type Tab = 'sessions' | 'settings';

function ConnectionBanner() {
  const connection = useUi((s) => s.connection);
  const hasView = useUi((s) => s.view !== null);
  const hostState = useHostAtAddress(connection === 'disconnected');
  if (connection === 'connected') return null;
  if (connection === 'connecting' && !hasView) {
    return (
      <p className="banner info" role="status">
        Connecting to CutRight host…
      </p>
    );
  }
  return (
    <div className="banner warn" role="alert">
      <p>
        <strong>{hostState === 'replaced' ? 'CutRight host was started again.' : hostState === 'gone' ? 'CutRight host is not running.' : 'Lost the connection to CutRight host.'}</strong>{' '}
        What you see may be out of date, and Stop demo cannot reach the host until it is back.
      </p>
      <p className="small">
        {hostState === 'replaced'
          ? 'A new start has a new address: open the one it printed (the line with the UI URL). This page cannot follow it.'
          : 'This page reconnects by itself when this host answers again. If it was closed, start it again (cutright, or npm start in its folder) and open the address it prints: each start has a new one.'}
      </p>
    </div>
  );
}

type HostAtAddress = 'unknown' | 'gone' | 'replaced';

/**
 * While disconnected, asks this page's own address every few seconds: no answer means no host
 * runs here; a refusal (404) means another start of the host, with another secret, answers here.
 */
function useHostAtAddress(disconnected: boolean): HostAtAddress {
  const [state, setState] = useState<HostAtAddress>('unknown');
  useEffect(() => {
    if (!disconnected) {
      setState('unknown');
      return;
    }
    let stopped = false;
    const probe = async (): Promise<void> => {
      try {
        const response = await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
        if (!stopped) setState(response.status === 404 ? 'replaced' : 'unknown');
      } catch {
        if (!stopped) setState('gone');
      }
    };
    void probe();
    const timer = setInterval(() => void probe(), 3000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [disconnected]);
  return state;
}

function Notice({ inert }: { inert: boolean }) {
  const notice = useUi((s) => s.notice);
  const actions = useUi((s) => s.actions);
  if (!notice) return null;
  return (
    <div className="banner error-banner" role="alert" inert={inert}>
      <span>{notice}</span>
      <button type="button" className="button subtle" onClick={() => actions.dismissNotice()}>
        Dismiss
      </button>
    </div>
  );
}

/** Sessions that ended by a failure (a target that did not load, a full disk): what happened and that the bundle says so. */
function Problems({ inert }: { inert: boolean }) {
  const problems = useUi((s) => s.view?.problems);
  const dismissed = useUi((s) => s.dismissedProblems);
  const actions = useUi((s) => s.actions);
  const shown = (problems ?? []).filter((p) => !dismissed.includes(p.sessionId));
  if (shown.length === 0) return null;
  return (
    <div inert={inert}>
      {shown.map((problem) => (
        <div key={problem.sessionId} className="banner error-banner problem-banner" role="alert">
          <span>
            <strong>
              Demo session of {shortText(problem.appName, 40)} (agent “<bdi>{shortText(problem.agentName, 40)}</bdi>”) ended: {describeReason(problem.reason)}.
            </strong>{' '}
            {problem.message}
          </span>
          <button type="button" className="button subtle" aria-label={`Dismiss: ${shortText(problem.appName, 40)} ${problem.reason}`} onClick={() => actions.dismissProblem(problem.sessionId)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}

function DemoModeBadge() {
  const demoMode = useUi((s) => s.view?.demoMode);
  if (demoMode === undefined) return null;
  return <span className={`badge ${demoMode ? 'on' : 'off'}`}>Demo mode {demoMode ? 'on' : 'off'}</span>;
}

/**
 * Keeps `--top-height` on the root at the height of the sticky top (header, banners, kill
 * controls), so the consent dialog sits below it and never covers Stop demo.
 */
function useTopHeight() {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const top = ref.current;
    if (!top) return;
    const root = document.documentElement;
    const update = (): void => root.style.setProperty('--top-height', `${top.getBoundingClientRect().height}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(top);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--top-height');
    };
  }, []);
  return ref;
}

/**
 * `consentElsewhere`: the shell asks for consent in a window of its own (Electron's focused,
 * capture-excluded consent window), so the main window does not show the question too.
 */
export function App({ bridge, layout = 'main', consentElsewhere = false }: { bridge: Pick<UiBridge, 'pictureUrl' | 'subscribeFrames'>; layout?: AppLayout; consentElsewhere?: boolean }) {
  const [tab, setTab] = useState<Tab>('sessions');
  const actions = useUi((s) => s.actions);
  // While consent is asked here, everything but the dialog and the kill controls is inert.
  const consent = useUi((s) => s.view?.consent ?? null);
  const consentOpen = consent !== null && !consentElsewhere;
  const topRef = useTopHeight();
  const mac = isMac(navigator.platform);
  const shortcut = killShortcutText(mac);
  useKillShortcut(() => void actions.killAll(), mac);
  // Electron focuses its own consent window; a page in a browser tab must ask for attention.
  useConsentAttention(consent, layout === 'main' && !consentElsewhere);
  const show = (next: Tab): void => {
    // The Sessions tab always leads back to the list.
    if (next === 'sessions') actions.closeBundle();
    setTab(next);
  };
  // Electron's small windows: one control each, still a page with a main landmark and a title.
  if (layout === 'consent') {
    return (
      <main className="consent-window">
        <h1 className="visually-hidden">CutRight: consent</h1>
        <ConsentContainer />
      </main>
    );
  }
  if (layout === 'kill') {
    return (
      <main className="kill-window">
        <h1 className="visually-hidden">CutRight: live demo</h1>
        <ConnectionBanner />
        <KillControlsContainer shortcut={shortcut} />
        <LiveAnnouncer />
        <LiveViewsContainer subscribeFrames={bridge.subscribeFrames} size="small" />
      </main>
    );
  }
  return (
    <>
      {/* Header, banners and kill controls stay at the top of the window, never scrolled away. */}
      <div ref={topRef} className={consentOpen ? 'top over-backdrop' : 'top'}>
        <header className="header" inert={consentOpen}>
          <h1 className="brand">CutRight</h1>
          <nav aria-label="Main" className="tabs">
            {(['sessions', 'settings'] as const).map((t) => (
              <button key={t} type="button" className="tab" aria-current={tab === t ? 'page' : undefined} onClick={() => show(t)}>
                {t === 'sessions' ? 'Sessions' : 'Settings'}
              </button>
            ))}
          </nav>
          <DemoModeBadge />
        </header>
        <ConnectionBanner />
        <KillControlsContainer shortcut={shortcut} />
        <Notice inert={consentOpen} />
        <Problems inert={consentOpen} />
      </div>
      <LiveAnnouncer />
      <main className="main" inert={consentOpen}>{tab === 'sessions' ? <SessionsContainer bridge={bridge} /> : <SettingsContainer />}</main>
      {consentElsewhere ? null : <ConsentContainer />}
    </>
  );
}
