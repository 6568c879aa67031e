// The UI's view of the host: a pure projection of the sessions, the consent queue and the
// settings (`projectView`), and its publisher, which coalesces changes into at most one
// rebuild per turn of the event loop, so a flood of changes (thousands of queued requests)
// costs one view, not one per change.
import type { ExportProgress, HostView, LiveSession, SessionProblem } from '../ui-protocol/index.js';
import type { Session } from './session.js';

/** What the view is projected from. */
export interface ViewSource {
  demoMode: boolean;
  sessions: Iterable<Session>;
  /** The request whose dialog is shown, if any. */
  showing: Session | undefined;
  /** Requests waiting behind it. */
  behind: number;
  bundlesVersion: number;
  problems: readonly SessionProblem[];
  /** Exports running now. */
  exports?: readonly ExportProgress[];
}

export function projectView(source: ViewSource): HostView {
  const { showing } = source;
  const consent = showing
    ? {
        consentId: showing.id,
        appId: showing.app.id,
        appName: showing.app.name,
        appUrl: showing.app.url,
        agentName: showing.agentName,
        requester: showing.requester,
        requestedAt: showing.context.requestedAt,
      }
    : null;
  const live: LiveSession[] = [];
  for (const session of source.sessions) {
    if (!session.live) continue;
    const { context } = session;
    live.push({
      sessionId: session.id,
      appId: session.app.id,
      appName: session.app.name,
      agentName: session.agentName,
      phase: session.armed ? 'armed' : 'arming',
      startedAt: context.answeredAt ?? context.requestedAt,
      steps: context.steps,
      cannotOpen: session.cannotOpen,
      capture: session.capture.view,
      lastStep: session.lastStep,
      lastClick: session.capture.lastClick,
    });
  }
  return { demoMode: source.demoMode, consent, consentQueue: source.behind, live, bundlesVersion: source.bundlesVersion, problems: [...source.problems], exports: [...(source.exports ?? [])] };
}

/** Kill reasons that are failures the person should be told of (not their own Stop, not the agent's end). */
const FAILURES: ReadonlySet<string> = new Set(['disk full', 'data folder unwritable', 'target could not open', 'target crashed', 'arming failed']);

/** The problem a finished session leaves for the person to see, if it ended by a failure. */
export function problemOf(session: Session, at: number): SessionProblem | null {
  const { context } = session;
  const failed = context.outcome === 'killed' && context.killReason !== null && FAILURES.has(context.killReason);
  if (!failed && !context.sealProblem) return null;
  const reason = failed ? (context.killReason ?? 'arming failed') : 'bundle not sealed';
  const message = failed
    ? (context.failure ?? reason)
    : `its bundle could not be sealed (${context.sealProblem ?? 'unknown'}); the host seals it as a crash on its next start`;
  return { sessionId: session.id, appName: session.app.name, agentName: session.agentName, reason, message, at };
}

/** Sends the view to its listeners: at once to a new one, then at most once per event-loop turn after changes. */
export class ViewPublisher {
  private readonly listeners = new Set<(view: HostView) => void>();
  private scheduled: NodeJS.Immediate | null = null;

  constructor(
    private readonly project: () => HostView,
    private readonly log: (message: string) => void,
  ) {}

  subscribe(listener: (view: HostView) => void): () => void {
    this.listeners.add(listener);
    listener(this.project());
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Something the view shows changed: publish once this turn's other work is done. */
  changed(): void {
    if (this.scheduled || this.listeners.size === 0) return;
    this.scheduled = setImmediate(() => this.publish());
  }

  /** Publishes now (the kill control's own change, which must not wait behind other work). */
  publish(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    if (this.listeners.size === 0) return;
    const view = this.project();
    for (const listener of this.listeners) {
      try {
        listener(view);
      } catch (error) {
        this.log(`view listener failed: ${String(error)}`);
      }
    }
  }
}
