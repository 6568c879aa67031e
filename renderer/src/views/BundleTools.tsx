import { useState } from 'react';
import type { BundleTask } from '../store.js';

export interface BundleToolsProps {
  /** The bundle's readable name, for the buttons' accessible names and the delete question. */
  name: string;
  task: BundleTask | undefined;
  /** A bundle still being recorded can be read, not exported, edited or deleted. */
  recording: boolean;
  /** All tools, or the short row of the sessions table. */
  full: boolean;
  onVerify(): void;
  onExportHtml(): void;
  onReveal(): void;
  onCopyPath(): void;
  onDelete(): void;
}

/** Verify, export, reveal the folder, copy its path, delete (asked first); the last outcome in words. */
export function BundleTools(props: BundleToolsProps) {
  const [confirming, setConfirming] = useState(false);
  const busy = props.task?.busy ?? null;
  const outcome = props.task?.outcome ?? null;
  const label = (action: string) => (props.full ? undefined : `${action}: ${props.name}`);
  return (
    <div className={props.full ? 'bundle-tools full' : 'bundle-tools'}>
      {confirming ? (
        <div role="group" aria-label={`Delete ${props.name}?`} className="confirm-delete">
          <span>Delete this demo from disk? This cannot be undone.</span>
          <button
            type="button"
            className="button danger"
            onClick={() => {
              setConfirming(false);
              props.onDelete();
            }}
          >
            Delete for good
          </button>
          <button type="button" className="button subtle" autoFocus onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className="tool-buttons">
          <button type="button" className="button subtle" aria-label={label('Verify')} disabled={busy !== null || props.recording} onClick={props.onVerify}>
            {busy === 'verify' ? 'Verifying…' : 'Verify'}
          </button>
          <button type="button" className="button subtle" aria-label={label('Export HTML')} disabled={busy !== null} onClick={props.onExportHtml}>
            {busy === 'export' ? 'Exporting…' : 'Export HTML'}
          </button>
          {props.full && (
            <>
              <button type="button" className="button subtle" disabled={busy !== null} onClick={props.onReveal}>
                Reveal folder
              </button>
              <button type="button" className="button subtle" disabled={busy !== null} onClick={props.onCopyPath}>
                Copy path
              </button>
            </>
          )}
          <button type="button" className="button subtle danger-text" aria-label={label('Delete')} disabled={busy !== null || props.recording} onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      )}
      <p className={outcome && !outcome.ok ? 'tool-outcome bad' : 'tool-outcome'} role="status">
        {outcome?.text ?? ''}
      </p>
    </div>
  );
}
