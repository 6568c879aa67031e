// Where the UI finds a bundle's pictures, written once: `bundles/<bundleId>/<picture path>`,
// relative to the page (the web shell's `/<secret>/`, Electron's `cutright://app/`). The
// renderer builds these paths; both shells parse them with pictureOfPath.

const PICTURES_ROUTE = 'bundles';

/** `bundles/<bundleId>/<picture>` with each segment URL-encoded; empty, `.` and `..` segments are dropped. */
export function picturePath(bundleId: string, picture: string): string {
  const segments = picture.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  return [PICTURES_ROUTE, bundleId, ...segments].map(encodeURIComponent).join('/');
}

/**
 * The bundle and picture a request path names, from its decoded segments below the page
 * (`['bundles', id, 'pictures', '1-r.jpg']`), or null when it is not a picture path. The
 * bundle store still checks that the picture is one of that bundle's.
 */
export function pictureOfPath(segments: readonly string[]): { bundleId: string; picture: string } | null {
  const [route, bundleId, ...rest] = segments;
  if (route !== PICTURES_ROUTE || !bundleId || rest.length === 0) return null;
  return { bundleId, picture: rest.join('/') };
}
