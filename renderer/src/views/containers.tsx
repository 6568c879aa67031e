// Thin containers: each reads the store with single-value selectors and hands props and
// callbacks to a presentational view.
import { useEffect, useRef } from 'react';
import { STAYS_REACHABLE } from '../focus-trap.js';
import type { ShortcutText } from '../kill-shortcut.js';
import { useUi } from '../store-context.js';
import { useNow } from '../use-now.js';
import { BundleView } from './BundleView.js';
import { ConsentDialog } from './ConsentDialog.js';
import { KillControl } from './KillControl.js';
import { LiveView } from './LiveView.js';
import { SessionsView } from './SessionsView.js';
import { SettingsView } from './SettingsView.js';
import type { ExportFormat, ExportProgress, LiveSession } from '../../../src/ui-protocol/index.js';
import type { UiBridge } from '../bridge/index.js';

export function ConsentContainer() {
  const consent = useUi((s) => s.view?.consent ?? null);
  const waiting = useUi((s) => s.view?.consentQueue ?? 0);
  const answering = useUi((s) => s.answering);
  const actions = useUi((s) => s.actions);
  if (!consent) return null;
  return (
    <ConsentDialog
      key={consent.consentId}
      consent={consent}
      waiting={waiting}
      busy={answering === consent.consentId}
      onAllow={() => void actions.allow()}
      onDeny={() => void actions.deny()}
      onDenyAll={() => void actions.denyAllWaiting()}
    />
  );
}

/** One kill control per live session (arming or armed), ticking every second; Stop all when several. */
export function KillControlsContainer({ shortcut }: { shortcut?: ShortcutText }) {
  const live = useUi((s) => s.view?.live);
  const stopping = useUi((s) => s.stopping);
  const actions = useUi((s) => s.actions);
  const sessions = (live ?? []).filter((s) => s.phase === 'arming' || s.phase === 'armed');
  const count = sessions.length;
  const previous = useRef(count);
  // A Stop button that had the focus is gone with its session: focus the next one, or (none
  // left) the page's main heading, so the keyboard is not dropped at the top of the page.
  useEffect(() => {
    const dropped = previous.current > count;
    previous.current = count;
    if (!dropped) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const next = document.querySelector<HTMLElement>('.kills button') ?? document.querySelector<HTMLElement>('main h2');
    if (next) {
      if (!next.matches('button')) next.tabIndex = -1;
      next.focus();
    }
  }, [count]);
  if (count === 0) return null;
  return (
    <KillControlList
      sessions={sessions}
      stopping={stopping}
      shortcut={shortcut}
      onStop={(id) => void actions.kill(id)}
      onStopAll={() => void actions.killAll()}
    />
  );
}

function KillControlList(props: { sessions: LiveSession[]; stopping: string[]; shortcut: ShortcutText | undefined; onStop(id: string): void; onStopAll(): void }) {
  const now = useNow(1000);
  const several = props.sessions.length > 1;
  return (
    // Above the consent dialog's backdrop and inside its focus trap: Stop demo is always in reach.
    <div className="kills" {...{ [STAYS_REACHABLE]: '' }}>
      {props.sessions.map((session) => (
        <KillControl
          key={session.sessionId}
          session={session}
          now={now}
          stopping={props.stopping.includes(session.sessionId)}
          several={several}
          shortcut={props.shortcut}
          onStop={props.onStop}
        />
      ))}
      {several && (
        <section className="kill-all" aria-label="All live demos">
          <span>{props.sessions.length} demo sessions are live.</span>
          <button type="button" className="button danger" aria-keyshortcuts={props.shortcut?.aria} onClick={props.onStopAll}>
            Stop all
            {props.shortcut && (
              <kbd className="shortcut" aria-hidden="true">
                {props.shortcut.label}
              </kbd>
            )}
          </button>
        </section>
      )}
    </div>
  );
}

/** One empty list, so that a view without exports does not re-render the sessions on every view. */
const NO_EXPORTS: readonly ExportProgress[] = [];

export function SessionsContainer({ bridge }: { bridge: Pick<UiBridge, 'pictureUrl' | 'subscribeFrames'> }) {
  const bundles = useUi((s) => s.bundles);
  const bundlesError = useUi((s) => s.bundlesError);
  const bundle = useUi((s) => s.bundle);
  const tasks = useUi((s) => s.bundleTasks);
  const actions = useUi((s) => s.actions);
  const exports = useUi((s) => s.view?.exports ?? NO_EXPORTS);
  useEffect(() => {
    void actions.loadBundles();
  }, [actions]);
  const tools = {
    exports,
    onVerify: (id: string) => void actions.verifyBundle(id),
    onExport: (id: string, format: ExportFormat) => void actions.exportBundle(id, format),
    onReveal: (id: string) => void actions.revealBundle(id),
    onCopyPath: (id: string) => void actions.copyBundlePath(id),
    onDelete: (id: string) => void actions.deleteBundle(id),
  };
  if (bundle) {
    return (
      <BundleView
        {...tools}
        bundleId={bundle.bundleId}
        detail={bundle.detail}
        error={bundle.error}
        task={tasks[bundle.bundleId]}
        pictureUrl={(b, p) => bridge.pictureUrl(b, p)}
        onSaveCaption={(receiptId, caption) => actions.editCaption(bundle.bundleId, receiptId, caption)}
        onBack={() => actions.closeBundle()}
      />
    );
  }
  return (
    <>
      <LiveViewsContainer subscribeFrames={bridge.subscribeFrames} />
      <SessionsView
        {...tools}
        bundles={bundles}
        error={bundlesError}
        tasks={tasks}
        onOpen={(id) => void actions.openBundle(id)}
        onReload={() => void actions.loadBundles()}
      />
    </>
  );
}

export function SettingsContainer() {
  const settings = useUi((s) => s.settings);
  const settingsError = useUi((s) => s.settingsError);
  const builtInApps = useUi((s) => s.builtInApps);
  const actions = useUi((s) => s.actions);
  const liveSessions = useUi((s) => s.view?.live.length ?? 0);
  useEffect(() => {
    void actions.loadSettings();
  }, [actions]);
  if (!settings) {
    return (
      <section className="panel" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        {settingsError ? (
          <p className="error" role="alert">
            Could not load the settings: {settingsError}{' '}
            <button type="button" className="button subtle" onClick={() => void actions.loadSettings()}>
              Try again
            </button>
          </p>
        ) : (
          <p className="hint">Loading…</p>
        )}
      </section>
    );
  }
  return <SettingsView settings={settings} builtInApps={builtInApps} liveSessions={liveSessions} onSave={actions.saveSettings} onCheck={actions.checkApp} />;
}

/** One live view per armed session (the sessions view and, small, Electron's kill window). */
export function LiveViewsContainer({ subscribeFrames, size }: { subscribeFrames: UiBridge['subscribeFrames']; size?: 'small' | 'large' }) {
  const live = useUi((s) => s.view?.live);
  const sessions = (live ?? []).filter((s) => s.phase === 'armed');
  if (sessions.length === 0) return null;
  return (
    <section className="live-views" aria-label="Live sessions">
      {sessions.map((session) => (
        <LiveView key={session.sessionId} session={session} subscribeFrames={subscribeFrames} size={size ?? 'large'} />
      ))}
    </section>
  );
}
