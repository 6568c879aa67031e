import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { AppEntry, Settings } from '../../../src/ui-protocol/index.js';
import type { CheckResult, SaveResult } from '../store.js';
import { draftFromEntry, emptyAppDraft, explainSettingsError } from '../settings-form.js';
import { AppForm } from './AppForm.js';
import { DeniedApps } from './DeniedApps.js';

export interface SettingsViewProps {
  settings: Settings;
  /** The apps the host lists ahead of the settings' (the fixture, when fixtures are on): shown, not editable. */
  builtInApps: AppEntry[];
  /** Sessions live now: switching Demo mode off ends them, so it is asked first. */
  liveSessions: number;
  onSave(settings: Settings): Promise<SaveResult>;
  onCheck(app: AppEntry): Promise<CheckResult>;
}

type Editing = { mode: 'add' } | { mode: 'edit'; id: string } | null;

function sameSettings(a: Settings, b: Settings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The settings as a draft: nothing reaches the host until Save settings (or Add app / Update app). */
export function SettingsView({ settings, builtInApps, liveSessions, onSave, onCheck }: SettingsViewProps) {
  const [base, setBase] = useState(settings);
  const [draft, setDraft] = useState(settings);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  /** Settings waiting for the person to confirm that Demo mode off ends the live sessions. */
  const [confirming, setConfirming] = useState<Settings | null>(null);
  const keepOnRef = useRef<HTMLButtonElement>(null);

  // New settings from the host (loaded or saved) replace the draft.
  if (settings !== base) {
    setBase(settings);
    setDraft(settings);
  }

  const dirty = !sameSettings(draft, settings);
  const change = (next: Settings): void => {
    setDraft(next);
    setSaved(false);
    setSaveError(null);
  };

  const store = async (next: Settings): Promise<void> => {
    setConfirming(null);
    setSaving(true);
    setSaveError(null);
    setSaved(false);
    const result = await onSave(next);
    setSaving(false);
    if (result.ok) setSaved(true);
    else setSaveError(explainSettingsError(result.message, next));
  };

  /** Saves `next`, asking first when it switches Demo mode off under live sessions. */
  const saveSettings = (next: Settings): void => {
    if (settings.demoMode && !next.demoMode && liveSessions > 0) {
      setConfirming(next);
      queueMicrotask(() => keepOnRef.current?.focus());
      return;
    }
    void store(next);
  };

  const save = (event: FormEvent): void => {
    event.preventDefault();
    saveSettings(draft);
  };

  // Adding or updating an app is one step: it goes into the settings and they are saved.
  const putApp = (entry: AppEntry): void => {
    const apps = editing?.mode === 'edit' ? draft.apps.map((a) => (a.id === editing.id ? entry : a)) : [...draft.apps, entry];
    const next = { ...draft, apps };
    change(next);
    setEditing(null);
    saveSettings(next);
  };

  const removeApp = (id: string): void => {
    change({ ...draft, apps: draft.apps.filter((a) => a.id !== id) });
    if (editing?.mode === 'edit' && editing.id === id) setEditing(null);
  };

  const editingEntry = editing?.mode === 'edit' ? draft.apps.find((a) => a.id === editing.id) : undefined;

  return (
    <section className="panel" aria-labelledby="settings-title">
      <div className="panel-head">
        <h2 id="settings-title">Settings</h2>
      </div>
      <form onSubmit={save} noValidate>
        <DemoModeSwitch on={draft.demoMode} onToggle={() => change({ ...draft, demoMode: !draft.demoMode })} />

        <h3>App catalog</h3>
        <p className="hint">The apps an agent may ask to drive. Each still needs your consent, every time.</p>
        <AppList builtIn={builtInApps} apps={draft.apps} onEdit={(id) => setEditing({ mode: 'edit', id })} onRemove={removeApp} />
        {editing ? (
          <AppForm
            key={editing.mode === 'edit' ? `edit:${editing.id}` : 'add'}
            title={editingEntry ? `Edit ${editingEntry.name}` : 'Add an app'}
            submitLabel={editingEntry ? 'Update app' : 'Add app'}
            initial={editingEntry ? draftFromEntry(editingEntry) : emptyAppDraft}
            otherIds={[...builtInApps, ...draft.apps].map((a) => a.id).filter((id) => id !== editingEntry?.id)}
            onDone={putApp}
            onCancel={() => setEditing(null)}
            onCheck={onCheck}
          />
        ) : (
          <button type="button" className="button" onClick={() => setEditing({ mode: 'add' })}>
            Add an app…
          </button>
        )}

        <DeniedApps denied={draft.deniedApps} catalog={[...builtInApps, ...draft.apps]} onChange={(deniedApps) => change({ ...draft, deniedApps })} />

        {confirming && (
          <DemoOffConfirm
            liveSessions={liveSessions}
            keepOnRef={keepOnRef}
            onTurnOff={() => void store(confirming)}
            onKeepOn={() => {
              setConfirming(null);
              change({ ...draft, demoMode: true });
            }}
          />
        )}
        <SaveRow saving={saving} blocked={editing !== null || confirming !== null} editing={editing !== null} dirty={dirty} saved={saved} saveError={saveError} />
      </form>
    </section>
  );
}

interface SaveRowProps {
  saving: boolean;
  /** An app being edited or a question open: Save settings waits. */
  blocked: boolean;
  editing: boolean;
  dirty: boolean;
  saved: boolean;
  saveError: string | null;
}

function SaveRow({ saving, blocked, editing, dirty, saved, saveError }: SaveRowProps) {
  return (
    <>
      <div className="save-row">
        <button type="submit" className="button primary" disabled={saving || blocked}>
          {saving ? 'Saving…' : 'Save settings'}
        </button>
        {editing && <span className="hint">Finish or cancel the app you are editing first.</span>}
        {!editing && dirty && !saving && <span className="hint">Unsaved changes</span>}
        <span role="status" className="saved">
          {saved && !dirty ? 'Settings saved.' : ''}
        </span>
      </div>
      {saveError && (
        <p className="error" role="alert">
          The host did not save the settings: {saveError}
        </p>
      )}
    </>
  );
}

function DemoModeSwitch({ on, onToggle }: { on: boolean; onToggle(): void }) {
  const ids = useId();
  return (
    <div className="setting-row">
      <div>
        <span id={`${ids}-label`} className="setting-label">
          Demo mode
        </span>
        <p id={`${ids}-hint`} className="hint">
          When off, the host refuses every agent request, the app list included.
        </p>
      </div>
      <button type="button" role="switch" className="switch" aria-checked={on} aria-labelledby={`${ids}-label`} aria-describedby={`${ids}-hint`} onClick={onToggle}>
        <span className="switch-track" aria-hidden="true">
          <span className="switch-knob" />
        </span>
        <span className="switch-text" aria-hidden="true">
          {on ? 'On' : 'Off'}
        </span>
      </button>
    </div>
  );
}

interface AppListProps {
  builtIn: AppEntry[];
  apps: AppEntry[];
  onEdit(id: string): void;
  onRemove(id: string): void;
}

/** The catalog as agents see it: the built-in apps first (marked, not editable), then the settings'. */
function AppList({ builtIn, apps, onEdit, onRemove }: AppListProps) {
  if (builtIn.length + apps.length === 0) return <p className="empty">No apps in the catalog.</p>;
  return (
    <ul className="apps">
      {builtIn.map((app) => (
        <li key={app.id} className="app built-in">
          <AppFacts app={app} />
          <p className="small tag">Built in: the test fixture, listed because fixtures are on (--fixtures). It is not in the settings file.</p>
        </li>
      ))}
      {apps.map((app) => (
        <li key={app.id} className="app">
          <AppFacts app={app} />
          <div className="app-actions">
            <button type="button" className="button subtle" aria-label={`Edit ${app.name}`} onClick={() => onEdit(app.id)}>
              Edit
            </button>
            <button type="button" className="button subtle" aria-label={`Remove ${app.name}`} onClick={() => onRemove(app.id)}>
              Remove
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

function AppFacts({ app }: { app: AppEntry }) {
  return (
    <div className="app-text">
      <p className="app-name">
        {app.name} <span className="mono hint">{app.id}</span>
      </p>
      <p className="mono small">{app.url}</p>
      <p className="small">
        Allowed origins: <span className="mono">{app.allowedOrigins.join(', ') || 'none'}</span>
      </p>
    </div>
  );
}

interface DemoOffConfirmProps {
  liveSessions: number;
  keepOnRef: RefObject<HTMLButtonElement | null>;
  onTurnOff(): void;
  onKeepOn(): void;
}

function DemoOffConfirm({ liveSessions, keepOnRef, onTurnOff, onKeepOn }: DemoOffConfirmProps) {
  const ids = useId();
  const one = liveSessions === 1;
  return (
    <div className="confirm" role="alertdialog" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-text`}>
      <p id={`${ids}-title`} className="setting-label">
        Turn Demo mode off?
      </p>
      <p id={`${ids}-text`}>
        {one ? 'A demo session is live' : `${liveSessions} demo sessions are live`}: switching Demo mode off ends {one ? 'it' : 'them'} now
        (sealed killed) and refuses every waiting request.
      </p>
      <div className="form-actions">
        <button type="button" className="button danger" onClick={onTurnOff}>
          Turn off and end {one ? 'the session' : 'the sessions'}
        </button>
        <button ref={keepOnRef} type="button" className="button" onClick={onKeepOn}>
          Keep Demo mode on
        </button>
      </div>
    </div>
  );
}
