// The host windows' own origin, `cutright://app/`, as plain constants: the main process's
// protocol handler (app-protocol.ts) and the sandboxed preloads (which can bundle nothing of
// Node) both use them.
export const APP_SCHEME = 'cutright';
export const APP_HOST = 'app';
/** Electron treats the scheme as standard, so this is the origin its pages report. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_PAGE = `${APP_ORIGIN}/index.html`;
/** Where the renderer resolves picture paths (`bundles/<id>/<picture>`): the preload's `pictureBase`. */
export const PICTURE_BASE = `${APP_ORIGIN}/`;
