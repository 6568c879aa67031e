import { useId, useRef, useState, type FormEvent } from 'react';
import type { AppEntry, Settings } from '../../../src/ui-protocol/index.js';
import type { SaveResult } from '../store.js';
import {
  deniedAppError,
  draftFromEntry,
  emptyAppDraft,
  explainSettingsError,
  validateAppDraft,
  type AppDraft,
  type AppDraftErrors,
} from '../settings-form.js';

export interface SettingsViewProps {
  settings: Settings;
  /** Sessions live now: switching Demo mode off ends them, so it is asked first. */
  liveSessions: number;
  onSave(settings: Settings): Promise<SaveResult>;
}

type Editing = { mode: 'add' } | { mode: 'edit'; id: string } | null;

function sameSettings(a: Settings, b: Settings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The settings as a draft: nothing reaches the host until Save settings. */
export function SettingsView({ settings, liveSessions, onSave }: SettingsViewProps) {
  const [base, setBase] = useState(settings);
  const [draft, setDraft] = useState(settings);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [deniedInput, setDeniedInput] = useState('');
  const [deniedError, setDeniedError] = useState<string | null>(null);
  /** Settings waiting for the person to confirm that Demo mode off ends the live sessions. */
  const [confirming, setConfirming] = useState<Settings | null>(null);
  const [denyPick, setDenyPick] = useState('');
  const keepOnRef = useRef<HTMLButtonElement>(null);
  const deniedInputRef = useRef<HTMLInputElement>(null);
  const ids = useId();

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
    const apps =
      editing?.mode === 'edit' ? draft.apps.map((a) => (a.id === editing.id ? entry : a)) : [...draft.apps, entry];
    const next = { ...draft, apps };
    change(next);
    setEditing(null);
    saveSettings(next);
  };

  const removeApp = (id: string): void => {
    change({ ...draft, apps: draft.apps.filter((a) => a.id !== id) });
    if (editing?.mode === 'edit' && editing.id === id) setEditing(null);
  };

  const addDenied = (): void => {
    const error = deniedAppError(deniedInput, draft.deniedApps);
    setDeniedError(error);
    if (error) {
      deniedInputRef.current?.focus();
      return;
    }
    change({ ...draft, deniedApps: [...draft.deniedApps, deniedInput.trim()] });
    setDeniedInput('');
  };

  const editingEntry = editing?.mode === 'edit' ? draft.apps.find((a) => a.id === editing.id) : undefined;

  return (
    <section className="panel" aria-labelledby="settings-title">
      <div className="panel-head">
        <h2 id="settings-title">Settings</h2>
      </div>
      <form onSubmit={save} noValidate>
        <div className="setting-row">
          <div>
            <span id={`${ids}-demo-label`} className="setting-label">
              Demo mode
            </span>
            <p id={`${ids}-demo-hint`} className="hint">
              When off, the host refuses every agent request, the app list included.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={draft.demoMode}
            aria-labelledby={`${ids}-demo-label`}
            aria-describedby={`${ids}-demo-hint`}
            onClick={() => change({ ...draft, demoMode: !draft.demoMode })}
          >
            <span className="switch-track" aria-hidden="true">
              <span className="switch-knob" />
            </span>
            <span className="switch-text" aria-hidden="true">
              {draft.demoMode ? 'On' : 'Off'}
            </span>
          </button>
        </div>

        <h3>App catalog</h3>
        <p className="hint">The apps an agent may ask to drive. Each still needs your consent, every time.</p>
        {draft.apps.length === 0 ? (
          <p className="empty">No apps in the catalog.</p>
        ) : (
          <ul className="apps">
            {draft.apps.map((app) => (
              <li key={app.id} className="app">
                <div className="app-text">
                  <p className="app-name">
                    {app.name} <span className="mono hint">{app.id}</span>
                  </p>
                  <p className="mono small">{app.url}</p>
                  <p className="small">
                    Allowed origins: <span className="mono">{app.allowedOrigins.join(', ') || 'none'}</span>
                  </p>
                </div>
                <div className="app-actions">
                  <button type="button" className="button subtle" aria-label={`Edit ${app.name}`} onClick={() => setEditing({ mode: 'edit', id: app.id })}>
                    Edit
                  </button>
                  <button type="button" className="button subtle" aria-label={`Remove ${app.name}`} onClick={() => removeApp(app.id)}>
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {editing ? (
          <AppForm
            key={editing.mode === 'edit' ? `edit:${editing.id}` : 'add'}
            title={editingEntry ? `Edit ${editingEntry.name}` : 'Add an app'}
            submitLabel={editingEntry ? 'Update app' : 'Add app'}
            initial={editingEntry ? draftFromEntry(editingEntry) : emptyAppDraft}
            otherIds={draft.apps.map((a) => a.id).filter((id) => id !== editingEntry?.id)}
            onDone={putApp}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <button type="button" className="button" onClick={() => setEditing({ mode: 'add' })}>
            Add an app…
          </button>
        )}

        <h3>Denied apps</h3>
        <p className="hint">Requests for these app ids are refused without asking you.</p>
        {draft.deniedApps.length === 0 ? (
          <p className="empty">No apps are denied.</p>
        ) : (
          <ul className="denied">
            {draft.deniedApps.map((id) => (
              <li key={id}>
                <span className="mono">{id}</span>
                <button
                  type="button"
                  className="button subtle"
                  aria-label={`Remove ${id} from denied apps`}
                  onClick={() => change({ ...draft, deniedApps: draft.deniedApps.filter((d) => d !== id) })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        {draft.apps.some((a) => !draft.deniedApps.includes(a.id)) && (
          <div className="field inline">
            <label htmlFor={`${ids}-deny-pick`}>Deny an app of the catalog</label>
            <div className="inline-row">
              <select id={`${ids}-deny-pick`} value={denyPick} onChange={(e) => setDenyPick(e.target.value)}>
                <option value="">Choose an app…</option>
                {draft.apps
                  .filter((a) => !draft.deniedApps.includes(a.id))
                  .map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} ({a.id})
                    </option>
                  ))}
              </select>
              <button
                type="button"
                className="button"
                disabled={denyPick === ''}
                onClick={() => {
                  if (!denyPick || draft.deniedApps.includes(denyPick)) return;
                  change({ ...draft, deniedApps: [...draft.deniedApps, denyPick] });
                  setDenyPick('');
                }}
              >
                Deny this app
              </button>
            </div>
          </div>
        )}
        <div className="field inline">
          <label htmlFor={`${ids}-denied`}>Add a denied app (its id)</label>
          <div className="inline-row">
            <input
              ref={deniedInputRef}
              id={`${ids}-denied`}
              className="mono"
              value={deniedInput}
              aria-invalid={deniedError ? true : undefined}
              aria-describedby={deniedError ? `${ids}-denied-error` : undefined}
              onChange={(e) => {
                setDeniedInput(e.target.value);
                setDeniedError(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addDenied();
                }
              }}
            />
            <button type="button" className="button" onClick={addDenied}>
              Add to denied apps
            </button>
          </div>
          {deniedError && (
            <p id={`${ids}-denied-error`} className="field-error">
              {deniedError}
            </p>
          )}
        </div>

        {confirming && (
          <div className="confirm" role="alertdialog" aria-labelledby={`${ids}-confirm-title`} aria-describedby={`${ids}-confirm-text`}>
            <p id={`${ids}-confirm-title`} className="setting-label">
              Turn Demo mode off?
            </p>
            <p id={`${ids}-confirm-text`}>
              {liveSessions === 1 ? 'A demo session is live' : `${liveSessions} demo sessions are live`}: switching Demo mode off ends{' '}
              {liveSessions === 1 ? 'it' : 'them'} now (sealed killed) and refuses every waiting request.
            </p>
            <div className="form-actions">
              <button type="button" className="button danger" onClick={() => void store(confirming)}>
                Turn off and end {liveSessions === 1 ? 'the session' : 'the sessions'}
              </button>
              <button
                ref={keepOnRef}
                type="button"
                className="button"
                onClick={() => {
                  setConfirming(null);
                  change({ ...draft, demoMode: true });
                }}
              >
                Keep Demo mode on
              </button>
            </div>
          </div>
        )}
        <div className="save-row">
          <button type="submit" className="button primary" disabled={saving || editing !== null || confirming !== null}>
            {saving ? 'Saving…' : 'Save settings'}
          </button>
          {editing !== null && <span className="hint">Finish or cancel the app you are editing first.</span>}
          {editing === null && dirty && !saving && <span className="hint">Unsaved changes</span>}
          <span role="status" className="saved">
            {saved && !dirty ? 'Settings saved.' : ''}
          </span>
        </div>
        {saveError && (
          <p className="error" role="alert">
            The host did not save the settings: {saveError}
          </p>
        )}
      </form>
    </section>
  );
}

interface AppFormProps {
  title: string;
  submitLabel: string;
  initial: AppDraft;
  otherIds: string[];
  onDone(entry: AppEntry): void;
  onCancel(): void;
}

const FIELD_ORDER: Array<keyof AppDraft> = ['id', 'name', 'url', 'origins'];

/** One catalog entry being added or edited, checked when submitted. */
function AppForm({ title, submitLabel, initial, otherIds, onDone, onCancel }: AppFormProps) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<AppDraftErrors>({});
  const ids = useId();
  const refs = useRef<Partial<Record<keyof AppDraft, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  const submit = (): void => {
    const result = validateAppDraft(draft, otherIds);
    if ('errors' in result) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((f) => result.errors[f]);
      if (first) refs.current[first]?.focus();
      return;
    }
    onDone(result.entry);
  };

  const field = (name: keyof AppDraft, label: string, hint?: string, multiline = false) => {
    const id = `${ids}-${name}`;
    const describedBy = [hint ? `${id}-hint` : '', errors[name] ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    const common = {
      id,
      value: draft[name],
      'aria-invalid': errors[name] ? true : undefined,
      'aria-describedby': describedBy,
      onChange: (e: { target: { value: string } }) => {
        setDraft({ ...draft, [name]: e.target.value });
        if (errors[name]) setErrors({ ...errors, [name]: undefined });
      },
    };
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {hint && (
          <p id={`${id}-hint`} className="hint small">
            {hint}
          </p>
        )}
        {multiline ? (
          <textarea {...common} rows={3} className="mono" ref={(el) => void (refs.current[name] = el)} />
        ) : (
          <input
            {...common}
            className={name === 'name' ? undefined : 'mono'}
            ref={(el) => void (refs.current[name] = el)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                submit();
              }
            }}
          />
        )}
        {errors[name] && (
          <p id={`${id}-error`} className="field-error">
            {errors[name]}
          </p>
        )}
      </div>
    );
  };

  return (
    <fieldset className="app-form">
      <legend>{title}</legend>
      {field('id', 'App id', 'For example com.example.notes.')}
      {field('name', 'Name')}
      {field('url', 'URL', 'The page the demo opens.')}
      {field('origins', 'Allowed origins', 'One a line. Leave empty to allow only the URL’s own origin.', true)}
      <p className="hint small">{submitLabel} saves the settings at once.</p>
      <div className="form-actions">
        <button type="button" className="button primary" onClick={submit}>
          {submitLabel}
        </button>
        <button type="button" className="button subtle" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
