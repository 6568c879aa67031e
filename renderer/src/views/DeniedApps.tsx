import { useId, useRef, useState } from 'react';
import type { AppEntry } from '../../../src/ui-protocol/index.js';
import { deniedAppError } from '../settings-form.js';

export interface DeniedAppsProps {
  denied: string[];
  /** The catalog (built-in apps first), to pick an app to deny from. */
  catalog: AppEntry[];
  onChange(denied: string[]): void;
}

/** The denied apps: removed one by one, added from the catalog or by id. */
export function DeniedApps({ denied, catalog, onChange }: DeniedAppsProps) {
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pick, setPick] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const pickable = catalog.filter((a) => !denied.includes(a.id));

  const addTyped = (): void => {
    const problem = deniedAppError(input, denied);
    setError(problem);
    if (problem) {
      inputRef.current?.focus();
      return;
    }
    onChange([...denied, input.trim()]);
    setInput('');
  };

  return (
    <>
      <h3>Denied apps</h3>
      <p className="hint">Requests for these app ids are refused without asking you.</p>
      {denied.length === 0 ? (
        <p className="empty">No apps are denied.</p>
      ) : (
        <ul className="denied">
          {denied.map((id) => (
            <li key={id}>
              <span className="mono">{id}</span>
              <button type="button" className="button subtle" aria-label={`Remove ${id} from denied apps`} onClick={() => onChange(denied.filter((d) => d !== id))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {pickable.length > 0 && (
        <div className="field inline">
          <label htmlFor={`${ids}-pick`}>Deny an app of the catalog</label>
          <div className="inline-row">
            <select id={`${ids}-pick`} value={pick} onChange={(e) => setPick(e.target.value)}>
              <option value="">Choose an app…</option>
              {pickable.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.id})
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button"
              disabled={pick === ''}
              onClick={() => {
                if (!pick || denied.includes(pick)) return;
                onChange([...denied, pick]);
                setPick('');
              }}
            >
              Deny this app
            </button>
          </div>
        </div>
      )}
      <div className="field inline">
        <label htmlFor={`${ids}-typed`}>Add a denied app (its id)</label>
        <div className="inline-row">
          <input
            ref={inputRef}
            id={`${ids}-typed`}
            className="mono"
            value={input}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${ids}-typed-error` : undefined}
            onChange={(e) => {
              setInput(e.target.value);
              setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addTyped();
              }
            }}
          />
          <button type="button" className="button" onClick={addTyped}>
            Add to denied apps
          </button>
        </div>
        {error && (
          <p id={`${ids}-typed-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
    </>
  );
}
