import { describe, expect, it } from 'vitest';
import type { BundleSummary } from '../../src/ui-protocol/index.js';
import { bundleName, choices, filterBundles, NO_FILTER } from './bundle-filters.js';

const at = (iso: string) => Date.parse(iso);
const b = (bundleId: string, appName: string, agentName: string, startedAt: number, state: BundleSummary['state'] = 'complete'): BundleSummary => ({
  bundleId, sessionId: 's', appId: `app.${appName.toLowerCase()}`, appName, agentName, state, reason: state === 'killed' ? 'kill control' : null, startedAt, endedAt: null, steps: 1,
});
const all = [
  b('b-1', 'Demo Fixture', 'Claude', at('2026-11-30T10:00:00Z')),
  b('b-2', 'Shop', 'Claude', at('2026-12-01T09:00:00Z'), 'killed'),
  b('b-3', 'Shop', 'Cursor', at('2026-12-01T23:00:00Z'), 'open'),
];

describe('bundle names, search and filters', () => {
  it('names a bundle by app, agent and start time', () => {
    expect(bundleName(all[0]!, 'UTC')).toBe('Demo Fixture · Claude · 2026-11-30 10:00');
  });
  it('searches app, agent, id and reason, every word', () => {
    expect(filterBundles(all, { ...NO_FILTER, search: 'shop claude' }, 'UTC').map((x) => x.bundleId)).toEqual(['b-2']);
    expect(filterBundles(all, { ...NO_FILTER, search: 'KILL' }, 'UTC').map((x) => x.bundleId)).toEqual(['b-2']);
    expect(filterBundles(all, { ...NO_FILTER, search: 'b-3' }, 'UTC').map((x) => x.bundleId)).toEqual(['b-3']);
  });
  it('filters by app, agent, state and local date range', () => {
    expect(filterBundles(all, { ...NO_FILTER, app: 'Shop' }, 'UTC')).toHaveLength(2);
    expect(filterBundles(all, { ...NO_FILTER, agent: 'Cursor' }, 'UTC').map((x) => x.bundleId)).toEqual(['b-3']);
    expect(filterBundles(all, { ...NO_FILTER, state: 'killed' }, 'UTC').map((x) => x.bundleId)).toEqual(['b-2']);
    expect(filterBundles(all, { ...NO_FILTER, from: '2026-12-01', to: '2026-12-01' }, 'UTC').map((x) => x.bundleId)).toEqual(['b-2', 'b-3']);
    expect(filterBundles(all, { ...NO_FILTER, to: '2026-11-30' }, 'UTC').map((x) => x.bundleId)).toEqual(['b-1']);
    expect(choices(all, 'appName')).toEqual(['Demo Fixture', 'Shop']);
  });
});
