import { useState } from 'react';
import { captionParts, MAX_CAPTION_LENGTH, type BundleStep } from '../../../src/ui-protocol/index.js';
import { formatTimestamp } from '../format.js';

/** A caption with its `**name**` in bold. */
export function CaptionText({ caption }: { caption: string }) {
  return (
    <>
      {captionParts(caption).map((part, i) => (part.strong ? <strong key={i}>{part.text}</strong> : <span key={i}>{part.text}</span>))}
    </>
  );
}

export interface StepCaptionProps {
  number: number;
  step: Pick<BundleStep, 'caption' | 'autoCaption' | 'captionEditedAt'>;
  /** Null when the bundle cannot be edited (still recording). */
  onSave: ((caption: string | null) => Promise<{ ok: true } | { ok: false; message: string }>) | null;
}

/** A step's caption, with Edit: the person's text is saved beside the sealed bundle, marked as an edit. */
export function StepCaption({ number, step, onSave }: StepCaptionProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async (caption: string | null): Promise<void> => {
    if (!onSave) return;
    setSaving(true);
    const result = await onSave(caption);
    setSaving(false);
    if (result.ok) {
      setDraft(null);
      setProblem(null);
    } else setProblem(result.message);
  };
  if (draft !== null) {
    return (
      <form
        className="caption-edit"
        onSubmit={(event) => {
          event.preventDefault();
          void save(draft);
        }}
      >
        <label>
          Caption of step {number}
          <input
            type="text"
            value={draft}
            maxLength={MAX_CAPTION_LENGTH}
            autoFocus
            aria-describedby={`caption-hint-${number}`}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setDraft(null);
            }}
          />
        </label>
        <p className="hint" id={`caption-hint-${number}`}>
          Put **stars** around words to show them in bold. The recording is not changed: the caption is saved beside it, signed, as an edit.
        </p>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
        <div className="caption-buttons">
          <button type="submit" className="button primary" disabled={saving}>
            Save caption
          </button>
          {step.captionEditedAt !== null && (
            <button type="button" className="button subtle" disabled={saving} onClick={() => void save(null)}>
              Use the original caption
            </button>
          )}
          <button type="button" className="button subtle" disabled={saving} onClick={() => setDraft(null)}>
            Cancel
          </button>
        </div>
      </form>
    );
  }
  return (
    <div className="caption">
      <p className="caption-text">
        <CaptionText caption={step.caption} />
      </p>
      {step.captionEditedAt !== null && (
        <p className="caption-edited hint">
          Edited {formatTimestamp(step.captionEditedAt)}; recorded as: <CaptionText caption={step.autoCaption} />
        </p>
      )}
      {onSave && (
        <button type="button" className="button subtle" aria-label={`Edit caption of step ${number}`} onClick={() => setDraft(step.caption)}>
          Edit caption
        </button>
      )}
    </div>
  );
}
