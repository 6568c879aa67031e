import { useState } from 'react';
import type { HostBridge } from '../../src/host/bridge.js';
import { useUi } from './store-context.js';
import { ConsentContainer, KillControlsContainer, SessionsContainer, SettingsContainer } from './views/containers.js';

/** Which part of the UI a window shows: all of it, or (Electron's small windows) one control. */
export type AppLayout = 'main' | 'consent' | 'kill';

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

function Notice() {
  const notice = useUi((s) => s.notice);
  const actions = useUi((s) => s.actions);
  if (!notice) return null;
  return (
    <div className="banner error-banner" role="alert">
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

export function App({ bridge, layout = 'main' }: { bridge: Pick<HostBridge, 'pictureUrl'>; layout?: AppLayout }) {
  const [tab, setTab] = useState<Tab>('sessions');
  const actions = useUi((s) => s.actions);
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
      </div>
    );
  }
  return (
    <>
      {/* Header, banners and kill controls stay at the top of the window, never scrolled away. */}
      <div className="top">
        <header className="header">
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
        <Notice />
      </div>
      <main className="main">{tab === 'sessions' ? <SessionsContainer bridge={bridge} /> : <SettingsContainer />}</main>
      <ConsentContainer />
    </>
  );
}
