import { useLayoutEffect, useRef, useState } from 'react';
import type { UiBridge } from './bridge/index.js';
import type { AppLayout } from './layout.js';
import { useUi } from './store-context.js';
import { ConsentContainer, KillControlsContainer, LiveViewsContainer, SessionsContainer, SettingsContainer } from './views/containers.js';

export type { AppLayout };

type Tab = 'sessions' | 'settings';

function ConnectionBanner() {
  const connection = useUi((s) => s.connection);
  const hasView = useUi((s) => s.view !== null);
  if (connection === 'connected') return null;
  if (connection === 'connecting' && !hasView) {
    return (
      <p className="banner info" role="status">
        Connecting to CutRight host…
      </p>
    );
  }
  return (
    <p className="banner warn" role="alert">
      Disconnected from CutRight host. Reconnecting… What you see may be out of date, and Stop demo cannot reach the host until it is back.
    </p>
  );
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
  const consentOpen = useUi((s) => s.view?.consent != null) && !consentElsewhere;
  const topRef = useTopHeight();
  const show = (next: Tab): void => {
    // The Sessions tab always leads back to the list.
    if (next === 'sessions') actions.closeBundle();
    setTab(next);
  };
  if (layout === 'consent') return <ConsentContainer />;
  if (layout === 'kill') {
    return (
      <div className="kill-window">
        <ConnectionBanner />
        <KillControlsContainer />
        <LiveViewsContainer subscribeFrames={bridge.subscribeFrames} size="small" />
      </div>
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
        <KillControlsContainer />
        <Notice inert={consentOpen} />
      </div>
      <main className="main" inert={consentOpen}>{tab === 'sessions' ? <SessionsContainer bridge={bridge} /> : <SettingsContainer />}</main>
      {consentElsewhere ? null : <ConsentContainer />}
    </>
  );
}
