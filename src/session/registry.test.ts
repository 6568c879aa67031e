import { describe, expect, it } from 'vitest';
import { SessionRegistry } from './registry.js';
import { TOKEN_BYTES, tokenKey } from './tokens.js';

describe('session registry', () => {
  it('mints 256-bit tokens that resolve to their session', () => {
    const registry = new SessionRegistry();
    const token = registry.mint('s-1');
    expect(Buffer.from(token, 'base64url')).toHaveLength(TOKEN_BYTES);
    expect(registry.lookup(token)).toEqual({ kind: 'live', sessionId: 's-1' });
    expect(registry.lookup(token + 'x')).toEqual({ kind: 'unknown' });
    expect(registry.lookup('')).toEqual({ kind: 'unknown' });
  });

  it('mints distinct tokens', () => {
    const registry = new SessionRegistry();
    const tokens = new Set(Array.from({ length: 100 }, (_, i) => registry.mint(`s-${i}`)));
    expect(tokens.size).toBe(100);
  });

  it('says how a retired session ended', () => {
    const registry = new SessionRegistry();
    const a = registry.mint('a');
    const b = registry.mint('b');
    registry.retire('a', 'complete');
    registry.retire('b', 'killed');
    registry.retire('b', 'complete'); // idempotent: the first end wins
    expect(registry.lookup(a)).toEqual({ kind: 'gone', sessionId: 'a', how: 'complete' });
    expect(registry.lookup(b)).toEqual({ kind: 'gone', sessionId: 'b', how: 'killed' });
    expect(registry.liveCount).toBe(0);
  });

  it('forgets the oldest ended sessions past its bound', () => {
    const registry = new SessionRegistry({ endedCapacity: 2 });
    const tokens = ['a', 'b', 'c'].map((id) => registry.mint(id));
    for (const id of ['a', 'b', 'c']) registry.retire(id, 'complete');
    expect(registry.endedCount).toBe(2);
    expect(registry.lookup(tokens[0]!)).toEqual({ kind: 'unknown' });
    expect(registry.lookup(tokens[2]!)).toEqual({ kind: 'gone', sessionId: 'c', how: 'complete' });
  });

  it('keeps no token, only digests', () => {
    const registry = new SessionRegistry();
    const token = registry.mint('s');
    const kept = JSON.stringify([...(registry as unknown as { live: Map<string, unknown> }).live.keys()]);
    expect(kept).not.toContain(token);
    expect(kept).toContain(tokenKey(token));
    registry.retire('s', 'complete');
    const ended = (registry as unknown as { ended: Map<string, unknown> }).ended;
    const keptEnded = JSON.stringify([...ended.entries()]);
    expect(keptEnded).not.toContain(token);
    expect(keptEnded).toContain(tokenKey(token));
  });

  it('uses the injected randomness', () => {
    const registry = new SessionRegistry({ random: (n) => Buffer.alloc(n, 7) });
    expect(registry.mint('s')).toBe(Buffer.alloc(32, 7).toString('base64url'));
  });
});
