import { useEffect, useLayoutEffect, useRef, type RefObject, type SyntheticEvent } from 'react';
import type { ConsentPrompt, RequesterView } from '../../../src/ui-protocol/index.js';
import { useArmedWhenStable } from '../arm-delay.js';
import { displayText, middleText, shortText } from '../display-text.js';
import { insideTrap, nextFocusIndex, tabbableIn, trapScopes } from '../focus-trap.js';
import { formatTimestamp, plural, queueText } from '../format.js';

export interface ConsentDialogProps {
  consent: ConsentPrompt;
  /** Requests waiting behind this one. */
  waiting: number;
  /** An answer is on its way: the buttons wait. */
  busy: boolean;
  onAllow(): void;
  onDeny(): void;
  /** Refuses this request and every one waiting behind it (offered while others wait). */
  onDenyAll(): void;
}

/**
 * The consent question over its own backdrop. Not a native modal (`showModal()` would make the
 * whole page inert, the kill controls of sessions already live included): the caller makes
 * the rest of the page inert and keeps the kill controls (`data-stays-reachable`) above the
 * backdrop, and a focus trap cycles Tab through the dialog and those controls. Deny has the
 * focus when it opens; Escape and closing it deny. Allow is armed only after the dialog has
 * been visible and still for ARM_DELAY_MS. Mount one per consentId (key it) so each request
 * opens fresh, with Deny focused and Allow disarmed again. What the agent typed is shown as
 * data (display-text.ts): it can neither push the facts and buttons away nor turn text around.
 */
export function ConsentDialog({ consent, waiting, busy, onAllow, onDeny, onDenyAll }: ConsentDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  // Allow works only once the dialog has been on screen, unmoved, for a moment (10.3).
  const armed = useArmedWhenStable(dialogRef);
  const onDenyRef = useRef(onDeny);
  useEffect(() => {
    onDenyRef.current = onDeny;
  }, [onDeny]);

  useDenyFirstTrap(dialogRef, denyRef, onDenyRef);

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
  const name = displayText(consent.agentName);
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
        <p id="consent-summary" className="consent-summary">
          An AI agent asks to drive <strong>{consent.appName}</strong> on this computer and record what it does.
        </p>
        {/* The facts and the buttons never scroll away; only the notes below them may. */}
        <ConsentFacts consent={consent} agentShort={name.short} />
        {/* Focusable: it may scroll in a small window, and the keyboard must reach it too. */}
        <div className="consent-notes" tabIndex={0} role="group" aria-label="More about this request">
          {(name.cut || name.neutralised > 0) && <FullName text={name.full} length={name.length} neutralised={name.neutralised} />}
          <p className="hint">
            Asked {formatTimestamp(consent.requestedAt)}. This answer is for this one session only. While it runs, <strong>Stop demo</strong> ends it at once.
          </p>
          {queue && (
            <p id="consent-queue" className="queue" role="status">
              {queue}
            </p>
          )}
        </div>
        <div className="dialog-actions">
          {waiting > 0 && (
            <button type="button" className="button subtle deny-all" onClick={onDenyAll} disabled={busy} aria-describedby="consent-queue">
              Deny all waiting
            </button>
          )}
          <button ref={denyRef} type="button" className="button" onClick={deny} disabled={busy}>
            Deny
          </button>
          <button
            type="button"
            className="button primary"
            onClick={onAllow}
            disabled={busy || !armed}
            aria-describedby={armed ? undefined : 'consent-arming'}
          >
            Allow
          </button>
          {!armed && (
            <span id="consent-arming" className="visually-hidden">
              Allow is available once the dialog has been shown for a moment.
            </span>
          )}
        </div>
      </dialog>
    </>
  );
}

/**
 * Deny has the focus when the dialog opens; Tab cycles through the dialog and the kill
 * controls kept reachable; focus that lands anywhere else comes back to Deny; Escape denies.
 */
function useDenyFirstTrap(dialogRef: RefObject<HTMLDialogElement | null>, denyRef: RefObject<HTMLButtonElement | null>, onDenyRef: RefObject<() => void>): void {
  useLayoutEffect(() => {
    denyRef.current?.focus();
  }, [denyRef]);

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
  }, [dialogRef, denyRef, onDenyRef]);
}

/** What is asked and by whom: the app, the page it opens, the process that asked and the name it claims. */
function ConsentFacts({ consent, agentShort }: { consent: ConsentPrompt; agentShort: string }) {
  return (
    <dl className="consent-facts">
      <dt>App</dt>
      <dd>
        <strong>{consent.appName}</strong> <span className="hint mono">{middleText(consent.appId, 60)}</span>
      </dd>
      <dt>Opens</dt>
      <dd className="mono">
        <bdi>{middleText(consent.appUrl)}</bdi>
      </dd>
      <dt>Asked by</dt>
      <dd>
        <RequesterFacts requester={consent.requester} />
      </dd>
      <dt>Agent</dt>
      <dd>
        <span className="agent-line">
          claims to be “<bdi className="agent-name">{agentShort}</bdi>”
        </span>
        <span className="hint"> (its own words, not verified)</span>
      </dd>
    </dl>
  );
}

/** The process that asked, as the OS reports it; what is unknown is said plainly. */
function RequesterFacts({ requester }: { requester: RequesterView }) {
  const { pid, executable, otherUser, sharedWith, unknown } = requester;
  if (pid === null) return <span className="unknown">Unknown process: {unknown ?? 'it could not be read'}</span>;
  return (
    <>
      <span className="mono requester-exe">{executable ? <bdi>{middleText(executable)}</bdi> : 'unknown executable'}</span> <span>(pid {pid})</span>
      {otherUser !== null && (
        <strong className="other-user">
          {' '}
          running as user <bdi>{shortText(otherUser, 32)}</bdi>, not you
        </strong>
      )}
      {sharedWith > 0 && <span className="hint"> (shared with {plural(sharedWith, 'other process', 'other processes')})</span>}
      {executable === null && unknown && <span className="hint"> ({unknown})</span>}
    </>
  );
}

/** The whole claimed name, neutralised, in a box of its own that scrolls. */
function FullName({ text, length, neutralised }: { text: string; length: number; neutralised: number }) {
  const facts = [plural(length, 'character'), neutralised > 0 ? `${plural(neutralised, 'hidden or direction character')} shown as codes` : ''].filter(Boolean).join(', ');
  return (
    <details className="full-name">
      <summary>Show the whole name the agent gave ({facts})</summary>
      <p className="full-name-text mono" tabIndex={0} role="group" aria-label="The whole name the agent gave">
        <bdi>{text}</bdi>
      </p>
    </details>
  );
}
