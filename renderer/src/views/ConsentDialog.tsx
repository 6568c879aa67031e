import { useEffect, useLayoutEffect, useRef, type KeyboardEvent, type SyntheticEvent } from 'react';
import type { ConsentPrompt } from '../../../src/host/bridge.js';
import { formatTimestamp, queueText } from '../format.js';

export interface ConsentDialogProps {
  consent: ConsentPrompt;
  /** Requests waiting behind this one. */
  waiting: number;
  /** An answer is on its way: the buttons wait. */
  busy: boolean;
  onAllow(): void;
  onDeny(): void;
}

/**
 * The consent question, as a modal <dialog> in the top layer (over everything, the rest of the
 * page inert). Deny has the focus when it opens; Escape and closing it deny. Mount one per
 * consentId (key it) so each request opens fresh, with Deny focused again.
 */
export function ConsentDialog({ consent, waiting, busy, onAllow, onDeny }: ConsentDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  const onDenyRef = useRef(onDeny);
  useEffect(() => {
    onDenyRef.current = onDeny;
  }, [onDeny]);

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    denyRef.current?.focus();
  }, []);

  const deny = (): void => onDenyRef.current();
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>): void => {
    if (event.key !== 'Escape') return;
    // Handled here so the dialog never closes on its own before the host answers.
    event.preventDefault();
    deny();
  };
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>): void => {
    event.preventDefault();
    deny();
  };
  // Chromium may close a modal dialog without a cancel event (no user activation yet): that is
  // a denial too, and the dialog stays up until the host takes the request away.
  const onClose = (): void => {
    deny();
    const dialog = dialogRef.current;
    if (dialog?.isConnected && !dialog.open) dialog.showModal();
  };

  const queue = queueText(waiting);
  return (
    <dialog
      ref={dialogRef}
      className="consent"
      aria-labelledby="consent-title"
      aria-describedby="consent-summary"
      onKeyDown={onKeyDown}
      onCancel={onCancel}
      onClose={onClose}
    >
      <h2 id="consent-title">Allow a demo session?</h2>
      <p id="consent-summary">
        An AI agent asks to drive <strong>{consent.appName}</strong> on this computer and record what it does.
      </p>
      <dl className="consent-facts">
        <dt>Agent</dt>
        <dd>
          claims to be <strong className="agent-name">{consent.agentName}</strong>
          <span className="hint"> (the agent names itself; this is not verified)</span>
        </dd>
        <dt>App</dt>
        <dd>
          <strong>{consent.appName}</strong> <span className="hint mono">{consent.appId}</span>
        </dd>
        <dt>Asked</dt>
        <dd>{formatTimestamp(consent.requestedAt)}</dd>
      </dl>
      <p className="hint">
        This answer is for this one session only. While it runs, <strong>Stop demo</strong> ends it at once.
      </p>
      {queue && (
        <p className="queue" role="status">
          {queue}
        </p>
      )}
      <div className="dialog-actions">
        <button ref={denyRef} type="button" className="button" onClick={deny} disabled={busy}>
          Deny
        </button>
        <button type="button" className="button primary" onClick={onAllow} disabled={busy}>
          Allow
        </button>
      </div>
    </dialog>
  );
}
