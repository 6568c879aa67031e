import type { LiveSession } from '../../../src/ui-protocol/index.js';
import { describeElapsed, formatElapsed, plural } from '../format.js';

export interface KillControlProps {
  session: LiveSession;
  /** The current time (ms since epoch); the caller ticks it. */
  now: number;
  /** A kill for this session is on its way. */
  stopping: boolean;
  onStop(sessionId: string): void;
}

/** The kill control of one live session: pressing Stop demo ends it at once, no confirmation. */
export function KillControl({ session, now, stopping, onStop }: KillControlProps) {
  const elapsed = now - session.startedAt;
  const armed = session.phase === 'armed';
  return (
    <section className={`kill${armed ? ' armed' : ''}`} aria-label={`Live demo: ${session.appName}`}>
      <span className="rec" aria-hidden="true" />
      <span className="kill-phase">{stopping ? 'Stopping…' : armed ? 'Recording' : 'Starting'}</span>
      <span className="kill-app">{session.appName}</span>
      <span className="kill-agent">
        agent claims to be <strong>{session.agentName}</strong>
      </span>
      <span className="kill-time" role="timer" aria-label={`Elapsed ${describeElapsed(elapsed)}`}>
        {formatElapsed(elapsed)}
      </span>
      <span className="kill-steps">{plural(session.steps, 'step')}</span>
      <button type="button" className="button danger" onClick={() => onStop(session.sessionId)}>
        Stop demo
      </button>
    </section>
  );
}
