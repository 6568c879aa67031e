// The host's sessions: every session from its consent request until it is over, found by id or
// by token, and the few latest that ended by a failure (shown to the person until dismissed by
// newer ones). The bundle list's version counter lives here because sessions are what change it.
import { ToolError } from '../contract/errors.js';
import type { CallContext } from '../service/server.js';
import type { SessionRegistry } from '../session/registry.js';
import type { AppEntry } from '../settings/settings.js';
import type { RequesterView, SessionProblem } from '../ui-protocol/index.js';
import type { KillReason } from '../session/machine.js';
import type { ConsentQueue } from './consent-queue.js';
import { Session, type SessionDeps } from './session.js';
import { problemOf, type ViewPublisher } from './view.js';

/** How many ended-by-failure sessions the view keeps for the person to see. */
const MAX_PROBLEMS = 5;

export class SessionBook {
  private readonly sessions = new Map<string, Session>();
  /** The latest sessions that ended by a failure, newest first. */
  private readonly failed: SessionProblem[] = [];
  private version = 0;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly consent: ConsentQueue,
    private readonly deps: SessionDeps,
    /** Sends the view again: `changed` coalesced with this turn's other work, `publish` at once. */
    private readonly view: Pick<ViewPublisher, 'changed' | 'publish'>,
  ) {}

  /** The kill control for one session; resolves once its bundle is sealed. */
  async kill(sessionId: string, reason: KillReason): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    const sealed = session.kill(reason);
    // The bar goes at once: the kill's own change is not coalesced behind other work.
    this.view.publish();
    await sealed;
  }

  /** Stop all: kills every live session at once; resolves with how many there were, once all are sealed. */
  async killAll(reason: KillReason): Promise<number> {
    const live = this.live();
    const sealed = live.map((session) => session.kill(reason));
    this.view.publish();
    await Promise.all(sealed);
    return live.length;
  }

  /** Bumped whenever a bundle appears or is sealed: the UI reloads its list then. */
  get bundlesVersion(): number {
    return this.version;
  }

  get problems(): readonly SessionProblem[] {
    return this.failed;
  }

  all(): IterableIterator<Session> {
    return this.sessions.values();
  }

  get(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  live(): Session[] {
    return [...this.sessions.values()].filter((session) => session.live);
  }

  /** Makes a session, keeps it until it is over, and queues its consent request. */
  ask(app: AppEntry, agentName: string, requester: RequesterView, call: CallContext): Session {
    this.consent.admit(call);
    const session = new Session(app, agentName, requester, this.deps);
    this.sessions.set(session.id, session);
    void session.bundleOpened.then(() => this.bundlesChanged());
    void session.finished.then(() => this.forget(session));
    this.consent.add(session, call);
    return session;
  }

  /** The live session a token belongs to, or the error that says why there is none. */
  byToken(token: string): Session {
    const found = this.registry.lookup(token);
    if (found.kind === 'unknown') throw new ToolError('invalid_token', 'the token is unknown or from a session that ended long ago');
    if (found.kind === 'gone') {
      if (found.how === 'killed') {
        // A session that ended by a failure says which (while it ends, and while the person is shown it).
        const ending = this.sessions.get(found.sessionId);
        if (ending) throw ending.killedError();
        const problem = this.failed.find((p) => p.sessionId === found.sessionId);
        throw new ToolError('session_killed', problem ? `the session was stopped (${problem.reason}: ${problem.message})` : 'the session was stopped (kill control or host)');
      }
      throw new ToolError('session_ended', 'the session ended with demo.end');
    }
    const session = this.sessions.get(found.sessionId);
    if (!session) throw new ToolError('invalid_token', 'the token is unknown');
    return session;
  }

  private forget(session: Session): void {
    this.sessions.delete(session.id);
    const problem = problemOf(session, this.deps.now());
    if (problem) {
      this.failed.unshift(problem);
      this.failed.splice(MAX_PROBLEMS);
      this.deps.log(`session ${session.id} (${session.app.name}) ended: ${problem.reason}: ${problem.message}`);
    }
    if (session.context.bundleId) this.bundlesChanged();
    else this.view.changed();
  }

  /** A bundle appeared, grew, was sealed, edited or deleted: the UI reloads what it shows of bundles. */
  bundlesChanged(): void {
    this.version += 1;
    this.view.changed();
  }
}
