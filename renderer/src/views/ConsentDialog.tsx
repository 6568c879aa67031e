import { useEffect, useLayoutEffect, useRef, type SyntheticEvent } from 'react';
import type { ConsentPrompt } from '../../../src/ui-protocol/index.js';
import { insideTrap, nextFocusIndex, tabbableIn, trapScopes } from '../focus-trap.js';
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
 * The consent question over its own backdrop. Not a native modal (`showModal()` would make the
 * whole page inert, the kill controls of sessions already live included): the caller makes
 * the rest of the page inert and keeps the kill controls (`data-stays-reachable`) above the
 * backdrop, and a focus trap cycles Tab through the dialog and those controls. Deny has the
 * focus when it opens; Escape and closing it deny. Mount one per consentId (key it) so each
 * request opens fresh, with Deny focused again.
 */
export function ConsentDialog({ consent, waiting, busy, onAllow, onDeny }: ConsentDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  const onDenyRef = useRef(onDeny);
  useEffect(() => {
    onDenyRef.current = onDeny;
  }, [onDeny]);

  useLayoutEffect(() => {
    denyRef.current?.focus();
  }, []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const focusDeny = (): void => denyRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') {
        // Handled here, wherever the focus is, so the dialog never closes on its own before the
        // host answers.
        event.preventDefault();
        onDenyRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      event.preventDefault();
      const stops = tabbableIn(trapScopes(dialog));
      const current = stops.indexOf(document.activeElement as HTMLElement);
      stops[nextFocusIndex(stops.length, current, event.shiftKey)]?.focus();
    };
    // Focus that lands outside the dialog and the kill controls comes back to Deny.
    const onFocusIn = (event: FocusEvent): void => {
      if (!insideTrap(dialog, event.target as Element | null)) focusDeny();
    };
    // A kill control that had the focus went away (its session ended): back to Deny.
    const observer = new MutationObserver(() => {
      if (!insideTrap(dialog, document.activeElement)) focusDeny();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      observer.disconnect();
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, []);

  const deny = (): void => onDenyRef.current();
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>): void => {
    event.preventDefault();
    deny();
  };
  // Should the browser close the dialog anyway, that is a denial too, and the dialog stays up
  // until the host takes the request away.
  const onClose = (): void => {
    deny();
    const dialog = dialogRef.current;
    if (dialog?.isConnected && !dialog.open) dialog.show();
  };

  const queue = queueText(waiting);
  return (
    <>
      {/* Clicks on the backdrop do nothing and keep the focus where it is. */}
      <div className="consent-backdrop" aria-hidden="true" onMouseDown={(e) => e.preventDefault()} />
      <dialog
        ref={dialogRef}
        open
        className="consent"
        aria-labelledby="consent-title"
        aria-describedby="consent-summary"
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
    </>
  );
}
