import { useId, useRef, useState } from 'react';
import type { AppCheckResult, AppEntry } from '../../../src/ui-protocol/index.js';
import type { CheckResult } from '../store.js';
import { validateAppDraft, type AppDraft, type AppDraftErrors } from '../settings-form.js';

export interface AppFormProps {
  title: string;
  submitLabel: string;
  initial: AppDraft;
  otherIds: string[];
  onDone(entry: AppEntry): void;
  onCancel(): void;
  /** "Check this app": opens the app where nobody sees it and says whether it can be recorded. */
  onCheck(entry: AppEntry): Promise<CheckResult>;
}

const FIELD_ORDER: Array<keyof AppDraft> = ['id', 'name', 'url', 'origins'];

type Check = { busy: true } | { busy: false; result: CheckResult } | null;

/** One catalog entry being added or edited, checked when submitted (or checked as a page first). */
export function AppForm({ title, submitLabel, initial, otherIds, onDone, onCancel, onCheck }: AppFormProps) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<AppDraftErrors>({});
  const [check, setCheck] = useState<Check>(null);
  const ids = useId();
  const refs = useRef<Partial<Record<keyof AppDraft, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  /** The entry the fields make, or null after showing what is wrong at the first bad field. */
  const validEntry = (): AppEntry | null => {
    const result = validateAppDraft(draft, otherIds);
    if ('errors' in result) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((f) => result.errors[f]);
      if (first) refs.current[first]?.focus();
      return null;
    }
    return result.entry;
  };

  const submit = (): void => {
    const entry = validEntry();
    if (entry) onDone(entry);
  };

  const runCheck = async (): Promise<void> => {
    const entry = validEntry();
    if (!entry) return;
    setCheck({ busy: true });
    setCheck({ busy: false, result: await onCheck(entry) });
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
        // The check was of the page as the fields were: an edit makes it stale.
        setCheck(null);
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
        <button type="button" className="button" disabled={check?.busy === true} onClick={() => void runCheck()}>
          {check?.busy ? 'Checking…' : 'Check this app'}
        </button>
        <button type="button" className="button subtle" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <div role="status" className="app-check">
        {check?.busy === true && <p>Opening {draft.url.trim()} where nobody sees it…</p>}
        {check?.busy === false && <CheckOutcome result={check.result} />}
      </div>
    </fieldset>
  );
}

/** Says what the check found, and what to do when the app cannot be recorded. */
function CheckOutcome({ result }: { result: CheckResult }) {
  if (!result.ok) return <p className="field-error">The check did not run: {result.message}</p>;
  const check: AppCheckResult = result.check;
  if (check.state === 'safe') {
    return <p className="check-ok">Capture-safe: a demo session of {check.url} can be recorded.</p>;
  }
  return (
    <div className="check-bad">
      <p>
        Not capture-safe: {check.reason ?? 'the page did not say why'}. A session of this app would refuse every snapshot and act
        (capture_unsafe).
      </p>
      <p className="hint small">
        A web app declares itself capture-safe with <code>{'<meta name="cutright-capture-state" content="safe">'}</code> on every page
        the demo visits, served from an allowed origin.
      </p>
    </div>
  );
}
