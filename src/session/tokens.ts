// Session tokens: 256 random bits, handed to the agent once and kept by the host only as a
// SHA-256 digest, so the token itself is never stored, logged or written to disk.
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_BYTES = 32;

export type RandomBytes = (size: number) => Buffer;

export function mintToken(random: RandomBytes = randomBytes): string {
  return random(TOKEN_BYTES).toString('base64url');
}

/**
 * The key a token is kept and looked up by: the hex of its SHA-256 digest. Lookups compare
 * digests, never the token's bytes, so their timing tells nothing about a token.
 */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
