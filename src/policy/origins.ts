// Origins of URLs, one parser for the whole host: the catalog's checks (settings), the
// "host itself is never a target" gate and the driver's allowed-origin rule all read origins
// the same way.

/** The origin of `url` (`https://example.com:8443`), or null when it is not a URL or has no origin of its own. */
export function originOf(url: string, options: { httpOnly?: boolean } = {}): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (options.httpOnly && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.origin === 'null' ? null : parsed.origin;
}

/**
 * Normalises one allowed origin (`http://127.0.0.1:5173/` → `http://127.0.0.1:5173`).
 * Throws an Error naming the value when it is not a URL with a real (non-opaque) origin.
 */
export function normalizeOrigin(value: string): string {
  const origin = originOf(value);
  if (origin !== null) return origin;
  if (!URL.canParse(value)) throw new Error(`allowed origin ${JSON.stringify(value)} is not a URL`);
  throw new Error(`allowed origin ${JSON.stringify(value)} has no origin of its own (opaque)`);
}
