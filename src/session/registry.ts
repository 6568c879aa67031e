// Which token belongs to which live session, and how recently ended sessions ended, so that a
// later call can be told `session_ended` or `session_killed` rather than `invalid_token`.
import { mintToken, sameDigest, tokenDigest, type RandomBytes } from './tokens.js';

export type EndKind = 'ended' | 'killed';

export type TokenLookup =
  | { kind: 'live'; sessionId: string }
  | { kind: 'gone'; sessionId: string; how: EndKind }
  | { kind: 'unknown' };

export interface SessionRegistryOptions {
  random?: RandomBytes;
  /**
   * How many ended sessions are remembered (oldest forgotten first). A token older than that
   * gets `invalid_token`, which the contract allows for any ended session. Each entry (a
   * 32-byte digest, its hex key and the session id) costs about 0.6 KB of heap, measured, so
   * the default bound holds under 2.5 MB.
   */
  endedCapacity?: number;
}

export const DEFAULT_ENDED_CAPACITY = 4096;

interface Entry {
  digest: Buffer;
  sessionId: string;
}

export class SessionRegistry {
  private readonly random: RandomBytes | undefined;
  private readonly endedCapacity: number;
  // Keyed by the digest's hex: the map finds the entry, then the digest is compared in constant time.
  private readonly live = new Map<string, Entry>();
  private readonly liveBySession = new Map<string, string>();
  // Insertion-ordered: the first key is the oldest ended session.
  private readonly ended = new Map<string, Entry & { how: EndKind }>();

  constructor(options: SessionRegistryOptions = {}) {
    this.random = options.random;
    this.endedCapacity = options.endedCapacity ?? DEFAULT_ENDED_CAPACITY;
  }

  /** Mints the token of a session that was just approved. The token is returned once, never kept. */
  mint(sessionId: string): string {
    if (this.liveBySession.has(sessionId)) throw new Error(`session ${sessionId} already has a token`);
    const token = mintToken(this.random);
    const digest = tokenDigest(token);
    const key = digest.toString('hex');
    this.live.set(key, { digest, sessionId });
    this.liveBySession.set(sessionId, key);
    return token;
  }

  lookup(token: string): TokenLookup {
    const digest = tokenDigest(token);
    const key = digest.toString('hex');
    const live = this.live.get(key);
    if (live && sameDigest(live.digest, digest)) return { kind: 'live', sessionId: live.sessionId };
    const gone = this.ended.get(key);
    if (gone && sameDigest(gone.digest, digest)) return { kind: 'gone', sessionId: gone.sessionId, how: gone.how };
    return { kind: 'unknown' };
  }

  /** Revokes a session's token at once; later lookups say how it ended. Idempotent. */
  retire(sessionId: string, how: EndKind): void {
    const key = this.liveBySession.get(sessionId);
    if (key === undefined) return;
    const entry = this.live.get(key);
    this.live.delete(key);
    this.liveBySession.delete(sessionId);
    if (!entry) return;
    this.ended.set(key, { ...entry, how });
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
