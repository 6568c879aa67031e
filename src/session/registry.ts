// Which token belongs to which live session, and how recently ended sessions ended, so that a
// later call can be told `session_ended` or `session_killed` rather than `invalid_token`.
import type { EndState } from '../contract/end-state.js';
import { mintToken, tokenKey, type RandomBytes } from './tokens.js';

export type TokenLookup =
  | { kind: 'live'; sessionId: string }
  | { kind: 'gone'; sessionId: string; how: EndState }
  | { kind: 'unknown' };

export interface SessionRegistryOptions {
  random?: RandomBytes;
  /**
   * How many ended sessions are remembered (oldest forgotten first). A token older than that
   * gets `invalid_token`, which the contract allows for any ended session. Each entry (the
   * digest's hex key, the session id, how it ended, and its slot in the map) costs about
   * 0.25 KB of heap, measured, so the default bound holds about 1 MB. This is the only thing
   * the host keeps of a session once it has ended (docs/performance.md, figure 6).
   */
  endedCapacity?: number;
}

const DEFAULT_ENDED_CAPACITY = 4096;

/** How an ended session is remembered. A class, so that every entry shares one hidden class. */
class EndedEntry {
  constructor(
    readonly sessionId: string,
    readonly how: EndState,
  ) {}
}

export class SessionRegistry {
  private readonly random: RandomBytes | undefined;
  private readonly endedCapacity: number;
  // Keyed by the SHA-256 digest's hex (tokenKey): a hit is a match of the whole digest, and no
  // comparison ever runs over the token's own bytes.
  private readonly live = new Map<string, string>();
  private readonly liveBySession = new Map<string, string>();
  // Insertion-ordered: the first key is the oldest ended session.
  private readonly ended = new Map<string, EndedEntry>();

  constructor(options: SessionRegistryOptions = {}) {
    this.random = options.random;
    this.endedCapacity = options.endedCapacity ?? DEFAULT_ENDED_CAPACITY;
  }

  /** Mints the token of a session that was just approved. The token is returned once, never kept. */
  mint(sessionId: string): string {
    if (this.liveBySession.has(sessionId)) throw new Error(`session ${sessionId} already has a token`);
    const token = mintToken(this.random);
    const key = tokenKey(token);
    this.live.set(key, sessionId);
    this.liveBySession.set(sessionId, key);
    return token;
  }

  lookup(token: string): TokenLookup {
    const key = tokenKey(token);
    const sessionId = this.live.get(key);
    if (sessionId !== undefined) return { kind: 'live', sessionId };
    const gone = this.ended.get(key);
    if (gone) return { kind: 'gone', sessionId: gone.sessionId, how: gone.how };
    return { kind: 'unknown' };
  }

  /** Revokes a session's token at once; later lookups say how it ended. Idempotent. */
  retire(sessionId: string, how: EndState): void {
    const key = this.liveBySession.get(sessionId);
    if (key === undefined) return;
    this.live.delete(key);
    this.liveBySession.delete(sessionId);
    this.ended.set(key, new EndedEntry(sessionId, how));
    while (this.ended.size > this.endedCapacity) {
      const oldest = this.ended.keys().next().value;
      if (oldest === undefined) break;
      this.ended.delete(oldest);
    }
  }

  get liveCount(): number {
    return this.live.size;
  }

  get endedCount(): number {
    return this.ended.size;
  }
}
