// The sessions list's names, search and filters: pure, so the view stays presentational.
import type { BundleSummary } from '../../src/ui-protocol/index.js';
import { formatTimestamp } from './format.js';

/** A bundle's name people can read: app, agent (as it named itself), start time. The id comes second. */
export function bundleName(b: Pick<BundleSummary, 'appName' | 'agentName' | 'startedAt'>, timeZone?: string): string {
  return `${b.appName || 'Unnamed app'} · ${b.agentName || 'unnamed agent'} · ${formatTimestamp(b.startedAt, timeZone).slice(0, 16)}`;
}

export interface BundleFilter {
  /** Words that must all appear in the app, the agent, the id or the end reason (any case). */
  search: string;
  /** '' for any. */
  app: string;
  agent: string;
  state: '' | BundleSummary['state'];
  /** `yyyy-mm-dd` (local dates, as a date input gives them), '' for no bound. */
  from: string;
  to: string;
}

export const NO_FILTER: BundleFilter = { search: '', app: '', agent: '', state: '', from: '', to: '' };

/** The local day (`yyyy-mm-dd`) a time falls on. */
function dayOf(ms: number, timeZone?: string): string {
  return formatTimestamp(ms, timeZone).slice(0, 10);
}

export function filterBundles(bundles: readonly BundleSummary[], filter: BundleFilter, timeZone?: string): BundleSummary[] {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  return bundles.filter((b) => {
    if (filter.app && b.appName !== filter.app) return false;
    if (filter.agent && b.agentName !== filter.agent) return false;
    if (filter.state && b.state !== filter.state) return false;
    const day = dayOf(b.startedAt, timeZone);
    if (filter.from && day < filter.from) return false;
    if (filter.to && day > filter.to) return false;
    const haystack = `${b.appName} ${b.appId} ${b.agentName} ${b.bundleId} ${b.reason ?? ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** The distinct values of a field, sorted, for a filter's choices. */
export function choices(bundles: readonly BundleSummary[], field: 'appName' | 'agentName'): string[] {
  return [...new Set(bundles.map((b) => b[field]))].sort((a, b) => a.localeCompare(b));
}

export function isFiltered(filter: BundleFilter): boolean {
  return Object.values(filter).some((value) => value !== '');
}
