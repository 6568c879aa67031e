// The consent requests waiting for the person (HOST-SPEC section 3, demo.request): one dialog
// at a time, the rest in arrival order, bounded per connection and in all so that no agent
// can bury the person (or the kill control) under requests.
import { ToolError } from '../contract/errors.js';
import type { CallContext } from '../service/server.js';
import type { DenyReason } from '../session/machine.js';
import type { ConsentAnswer } from '../ui-protocol/index.js';
import type { Session } from './session.js';

export interface ConsentBounds {
  /** Requests one connection may have waiting at once (shown one included). */
  perConnection: number;
  /** Requests waiting at once in all. */
  total: number;
}

export const DEFAULT_CONSENT_BOUNDS: ConsentBounds = { perConnection: 8, total: 64 };

export class ConsentQueue {
  private readonly waiting: Session[] = [];
  /** Requests waiting per connection, keyed by the connection's disconnect signal (one per connection). */
  private readonly perConnection = new Map<AbortSignal, number>();

  constructor(
    private readonly bounds: ConsentBounds,
    private readonly changed: () => void,
  ) {}

  /** The request whose dialog is shown, if any. */
  get showing(): Session | undefined {
    const head = this.waiting[0];
    return head?.asking ? head : undefined;
  }

  /** How many wait behind the dialog shown. */
  get behind(): number {
    return Math.max(0, this.waiting.length - 1);
  }

  get size(): number {
    return this.waiting.length;
  }

  /**
   * Refuses at once a request past either bound (`service_unavailable`, retryable), before
   * any session exists; the caller then makes the session and `add`s it.
   */
  admit(call: CallContext): void {
    const mine = this.perConnection.get(call.disconnected) ?? 0;
    if (mine >= this.bounds.perConnection) {
      throw new ToolError(
        'service_unavailable',
        `this connection already has ${mine} demo.request calls waiting for the person (at most ${this.bounds.perConnection}); wait for their answers before asking again`,
        true,
      );
    }
    if (this.waiting.length >= this.bounds.total) {
      throw new ToolError('service_unavailable', `${this.waiting.length} demo requests are already waiting for the person (at most ${this.bounds.total}); try again later`, true);
    }
  }

  /** Queues a session's consent request; the client leaving denies it, wherever it is in the queue. */
  add(session: Session, call: CallContext): void {
    this.admit(call);
    const connection = call.disconnected;
    this.perConnection.set(connection, (this.perConnection.get(connection) ?? 0) + 1);
    const onDisconnect = () => session.deny('client disconnected');
    connection.addEventListener('abort', onDisconnect, { once: true });
    this.waiting.push(session);
    void session.answered.then(() => {
      connection.removeEventListener('abort', onDisconnect);
      const left = (this.perConnection.get(connection) ?? 1) - 1;
      if (left > 0) this.perConnection.set(connection, left);
      else this.perConnection.delete(connection);
      this.remove(session);
    });
    if (connection.aborted) onDisconnect();
    else if (this.waiting.length === 1) this.showNext();
    this.changed();
  }

  /** The person's answer to the dialog shown. */
  answer(consentId: string, answer: ConsentAnswer): void {
    const session = this.showing;
    if (!session || session.id !== consentId) throw new Error('that consent request is no longer open');
    if (answer === 'deny') session.deny('deny');
    else session.allow();
  }

  /** Ends every waiting request (shown or queued) as consent_denied; returns how many there were. */
  denyAll(reason: DenyReason): number {
    const all = [...this.waiting];
    for (const session of all) session.deny(reason);
    return all.length;
  }

  private remove(session: Session): void {
    const index = this.waiting.indexOf(session);
    if (index === -1) return;
    this.waiting.splice(index, 1);
    if (index === 0) this.showNext();
    this.changed();
  }

  private showNext(): void {
    const next = this.waiting[0];
    if (next?.awaitingConsent && !next.asking) next.showConsent();
  }
}
