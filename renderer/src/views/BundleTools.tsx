import { useState } from 'react';
import type { ExportFormat, ExportProgress } from '../../../src/ui-protocol/index.js';
import type { BundleTask } from '../store.js';

/** How each export is named on its button and in its progress bar. */
export const EXPORT_WORDS: Record<ExportFormat, string> = { html: 'HTML', webm: 'video', mp4: 'MP4', gif: 'GIF' };

export interface BundleToolsProps {
  /** The bundle's readable name, for the buttons' accessible names and the delete question. */
  name: string;
  task: BundleTask | undefined;
  /** A bundle still being recorded can be read, not exported, edited or deleted. */
  recording: boolean;
  /** All tools, or the short row of the sessions table. */
  full: boolean;
  /** The host's progress of this bundle's running video or GIF export (the view's `exports`), or null. */
  exporting: ExportProgress | null;
  onVerify(): void;
  onExport(format: ExportFormat): void;
  onReveal(): void;
  onCopyPath(): void;
  onDelete(): void;
}

/** An export's button: `Export video`, `Exporting…` while it runs. */
function ExportButton(props: { format: ExportFormat; busy: string | null; label: string | undefined; onExport(format: ExportFormat): void }) {
  return (
    <button type="button" className="button subtle" aria-label={props.label} disabled={props.busy !== null} onClick={() => props.onExport(props.format)}>
      {props.busy === `export-${props.format}` ? 'Exporting…' : `Export ${EXPORT_WORDS[props.format]}`}
    </button>
  );
}

/** Verify, export (HTML, video, MP4, GIF), reveal the folder, copy its path, delete (asked first); the last outcome in words. */
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
          {(props.full ? (['html', 'webm', 'mp4', 'gif'] as const) : (['html', 'webm'] as const)).map((format) => (
            <ExportButton key={format} format={format} busy={busy} label={label(`Export ${EXPORT_WORDS[format]}`)} onExport={props.onExport} />
          ))}
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
      {props.exporting && (
        <div className="export-progress">
          <progress aria-label={`Exporting ${EXPORT_WORDS[props.exporting.format as ExportFormat] ?? props.exporting.format} of ${props.name}`} max={1} value={props.exporting.done} />
          <span aria-hidden="true">{Math.round(props.exporting.done * 100)}%</span>
        </div>
      )}
      <p className={outcome && !outcome.ok ? 'tool-outcome bad' : 'tool-outcome'} role="status">
        {outcome?.text ?? ''}
      </p>
    </div>
  );
}
