// The host windows' own origin, `cutright://app/`: the built renderer and the bundles'
// pictures, served from disk by the main process with a strict Content-Security-Policy.
// Nothing remote is ever loaded into a host window. Plain Node (Request/Response), so it is
// tested without Electron.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { HostWindowRole } from './ipc-channels.js';
import { contentTypeOf } from '../src/host/content-type.js';
import { pictureOfPath } from '../src/ui-protocol/index.js';
import { APP_HOST, APP_PAGE, APP_SCHEME } from './app-origin.js';

export { APP_HOST, APP_ORIGIN, APP_PAGE, APP_SCHEME, PICTURE_BASE } from './app-origin.js';

/**
 * The host pages' policy: only their own scripts and styles, no inline code, no plugins, no
 * frames, no network beyond the app origin, no form posts.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': APP_CSP,
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * The URL a host window loads. The renderer picks its layout from `?window=` (and the hash
 * names it too, for people reading logs and for a renderer that routes by hash).
 */
export function appPageUrl(role: HostWindowRole): string {
  return `${APP_PAGE}?window=${role}#${role}`;
}

/** True for the app's own page (any query or hash): the only page host windows may show. */
export function isAppPageUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.pathname === '/index.html' && parsed.username === '' && parsed.password === '' && parsed.port === '';
}

export interface AppRequestOptions {
  /** The built renderer: index.html and assets/. */
  rendererDir: string;
  /** BundleStore.picturePath: a picture's file, or null when it is not one of that bundle's. */
  picturePath(bundleId: string, picture: string): string | null;
  /** BundleStore.framePath: a recording frame's file of a sealed bundle, or null. */
  framePath(bundleId: string, frame: string): Promise<string | null>;
}

export type AppRequestHandler = (request: Request) => Promise<Response>;

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
}

async function fileResponse(file: string): Promise<Response> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return plain(404, 'not found');
    const body = await readFile(file);
    return new Response(body, {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'content-type': contentTypeOf(file) },
    });
  } catch {
    return plain(404, 'not found');
  }
}

/**
 * Answers `cutright://app/...`: `/index.html`, `/assets/<file>` (one level, no traversal)
 * and `/bundles/<bundleId>/<picture>` (a step's picture or a sealed recording's frame). Anything else, any other host and any method but GET
 * is refused.
 */
export function createAppRequestHandler(options: AppRequestOptions): AppRequestHandler {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return plain(400, 'bad url');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return plain(404, 'not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'method not allowed');
    let parts: string[];
    try {
      parts = url.pathname.split('/').slice(1).map((part) => decodeURIComponent(part));
    } catch {
      return plain(400, 'bad path');
    }
    if (parts.some((part) => part === '..' || part === '.' || part.includes('/') || part.includes('\\') || part.includes('\0'))) {
      return plain(404, 'not found');
    }
    if (parts.length === 1 && (parts[0] === 'index.html' || parts[0] === '')) return fileResponse(path.join(options.rendererDir, 'index.html'));
    if (parts.length === 2 && parts[0] === 'assets' && parts[1]) return fileResponse(path.join(options.rendererDir, 'assets', parts[1]));
    const picture = pictureOfPath(parts);
    const file = picture && (options.picturePath(picture.bundleId, picture.picture) ?? (await options.framePath(picture.bundleId, picture.picture)));
    if (file) return fileResponse(file);
    return plain(404, 'not found');
  };
}
