// Which part of the UI a window shows, read from its address. The web shell opens the whole
// UI; Electron's small windows load the same page with `#consent` or `#kill` (a hash, since
// its shell loads files by hash), and `?window=consent|kill` works too.

/** All of the UI, or (Electron's small windows) one control alone. */
export type AppLayout = 'main' | 'consent' | 'kill';

const LAYOUTS: readonly AppLayout[] = ['main', 'consent', 'kill'];

function asLayout(value: string | null | undefined): AppLayout | null {
  const name = value?.trim().toLowerCase();
  return LAYOUTS.find((l) => l === name) ?? null;
}

/**
 * The layout named by `?window=` or, failing that, by the hash (`#consent`, `#/kill`,
 * `#window=main`). Anything unknown or absent shows the whole UI.
 */
export function layoutFromLocation(location: Pick<Location, 'search' | 'hash'>): AppLayout {
  const fromQuery = asLayout(new URLSearchParams(location.search).get('window'));
  if (fromQuery) return fromQuery;
  const hash = location.hash.replace(/^#\/?/, '');
  return asLayout(new URLSearchParams(hash).get('window')) ?? asLayout(hash) ?? 'main';
}
