import type { LiveSession } from '../../../src/ui-protocol/index.js';
import { shortText } from '../display-text.js';
import { describeElapsed, formatElapsed, plural } from '../format.js';

export interface KillControlProps {
  session: LiveSession;
  /** The current time (ms since epoch); the caller ticks it. */
  now: number;
  /** A kill for this session is on its way. */
  stopping: boolean;
  /** Other sessions are live too: the button then names its app and agent (HOST-SPEC 5). */
  several: boolean;
  /** The shortcut that stops every session, as shown to the person (e.g. "Ctrl+Alt+Shift+K"). */
  shortcut?: { label: string; aria: string } | undefined;
  onStop(sessionId: string): void;
}

/** `Stop demo`, or with several live: `Stop demo: Demo Fixture (agent "x")`. */
export function stopName(session: Pick<LiveSession, 'appName' | 'agentName'>, several: boolean): string {
  return several ? `Stop demo: ${shortText(session.appName, 40)} (agent "${shortText(session.agentName, 40)}")` : 'Stop demo';
}

/** The kill control of one live session: pressing Stop demo ends it at once, no confirmation. */
export function KillControl({ session, now, stopping, several, shortcut, onStop }: KillControlProps) {
  const elapsed = now - session.startedAt;
  const armed = session.phase === 'armed';
  const failed = session.cannotOpen !== null;
  const name = stopName(session, several);
  return (
    <section
      className={`kill${armed ? ' armed' : ''}${failed ? ' failed' : ''}`}
      aria-label={`Live demo: ${shortText(session.appName, 40)}${several ? ` (agent "${shortText(session.agentName, 40)}")` : ''}`}
    >
      <span className="rec" aria-hidden="true" />
      <span className="kill-phase">{stopping ? 'Stopping…' : failed ? 'Cannot open' : armed ? 'Recording' : 'Starting'}</span>
      <span className="kill-app">{shortText(session.appName, 40)}</span>
      <span className="kill-agent">
        agent claims to be <bdi className="kill-agent-name">{shortText(session.agentName, 40)}</bdi>
      </span>
      <span className="kill-time" role="timer" aria-label={`Elapsed ${describeElapsed(elapsed)}`}>
        {formatElapsed(elapsed)}
      </span>
      <span className="kill-steps">{plural(session.steps, 'step')}</span>
      {failed && (
        // Nothing runs: the person is told why, and that Stop ends it (sealed killed, with this reason).
        <p className="kill-problem">
          Could not open {shortText(session.appName, 40)}: {session.cannotOpen}. Nothing will run; Stop demo ends the session.
        </p>
      )}
      {session.capture?.state === 'paused' && (
        // Why nothing is being recorded, in the driver's words (it names what the page lacks).
        <span className="kill-capture" role="status">
          Not capture-safe: {session.capture.reason ?? 'the target cannot report a capture-safe state'}
        </span>
      )}
      <button
        type="button"
        className="button danger"
        aria-label={several ? name : undefined}
        aria-keyshortcuts={!several && shortcut ? shortcut.aria : undefined}
        onClick={() => onStop(session.sessionId)}
      >
        Stop demo
        {!several && shortcut && (
          <kbd className="shortcut" aria-hidden="true">
            {shortcut.label}
          </kbd>
        )}
      </button>
    </section>
  );
}
