// Session tokens: 256 random bits, handed to the agent once and kept by the host only as a
// SHA-256 digest, so the token itself is never stored, logged or written to disk.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_BYTES = 32;

export type RandomBytes = (size: number) => Buffer;

export function mintToken(random: RandomBytes = randomBytes): string {
  return random(TOKEN_BYTES).toString('base64url');
}

/** The digest a token is kept as. Lookups go by digest, so no comparison runs over the token's bytes. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Compares two digests in constant time. */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
