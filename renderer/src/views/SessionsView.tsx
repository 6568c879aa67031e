import { useMemo, useState } from 'react';
import type { BundleSummary, ExportFormat, ExportProgress } from '../../../src/ui-protocol/index.js';
import { bundleName, choices, filterBundles, isFiltered, NO_FILTER, type BundleFilter } from '../bundle-filters.js';
import { formatTimestamp } from '../format.js';
import type { BundleTask } from '../store.js';
import { BundleTools } from './BundleTools.js';

export interface BundleToolHandlers {
  /** The exports the host is running now (the view's `exports`), for their progress bars. */
  exports: readonly ExportProgress[];
  onVerify(bundleId: string): void;
  onExport(bundleId: string, format: ExportFormat): void;
  onReveal(bundleId: string): void;
  onCopyPath(bundleId: string): void;
  onDelete(bundleId: string): void;
}

export interface SessionsViewProps extends BundleToolHandlers {
  /** null while the first load is on its way. */
  bundles: BundleSummary[] | null;
  error: string | null;
  tasks: Record<string, BundleTask>;
  onOpen(bundleId: string): void;
  onReload(): void;
}

function FilterBar({ filter, bundles, onChange }: { filter: BundleFilter; bundles: BundleSummary[]; onChange(filter: BundleFilter): void }) {
  const set = (patch: Partial<BundleFilter>) => onChange({ ...filter, ...patch });
  return (
    <form className="filters" role="search" aria-label="Search and filter sessions" onSubmit={(event) => event.preventDefault()}>
      <label>
        Search
        <input type="search" value={filter.search} placeholder="app, agent, id…" onChange={(e) => set({ search: e.target.value })} />
      </label>
      <label>
        App
        <select value={filter.app} onChange={(e) => set({ app: e.target.value })}>
          <option value="">All apps</option>
          {choices(bundles, 'appName').map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
      <label>
        Agent
        <select value={filter.agent} onChange={(e) => set({ agent: e.target.value })}>
          <option value="">All agents</option>
          {choices(bundles, 'agentName').map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
      <label>
        State
        <select value={filter.state} onChange={(e) => set({ state: e.target.value as BundleFilter['state'] })}>
          <option value="">Any state</option>
          <option value="open">open (recording)</option>
          <option value="complete">complete</option>
          <option value="killed">killed</option>
        </select>
      </label>
      <label>
        From
        <input type="date" value={filter.from} onChange={(e) => set({ from: e.target.value })} />
      </label>
      <label>
        To
        <input type="date" value={filter.to} onChange={(e) => set({ to: e.target.value })} />
      </label>
      {isFiltered(filter) && (
        <button type="button" className="button subtle" onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </button>
      )}
    </form>
  );
}

/** Every recorded session's bundle, newest first: searchable, filterable, each with its tools. */
export function SessionsView(props: SessionsViewProps) {
  const { bundles, error, onOpen, onReload } = props;
  const [filter, setFilter] = useState<BundleFilter>(NO_FILTER);
  const sorted = useMemo(() => (bundles ? [...bundles].sort((a, b) => b.startedAt - a.startedAt) : null), [bundles]);
  const shown = useMemo(() => (sorted ? filterBundles(sorted, filter) : null), [sorted, filter]);
  return (
    <section className="panel" aria-labelledby="sessions-title">
      <div className="panel-head">
        <h2 id="sessions-title">Sessions</h2>
        <button type="button" className="button subtle" onClick={onReload}>
          Reload
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          Could not load the sessions: {error}
        </p>
      )}
      {sorted === null && !error && <p className="hint">Loading…</p>}
      {sorted !== null && sorted.length === 0 && <p className="empty">No demos recorded yet. They appear here once an agent’s request is allowed.</p>}
      {sorted !== null && sorted.length > 0 && shown !== null && (
        <>
          <FilterBar filter={filter} bundles={sorted} onChange={setFilter} />
          <p className="hint" role="status">
            {shown.length === sorted.length ? `${sorted.length} ${sorted.length === 1 ? 'demo' : 'demos'}` : `${shown.length} of ${sorted.length} demos match`}
          </p>
          <div className="table-wrap">
            <table className="bundles">
              <caption className="visually-hidden">Recorded demo sessions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Demo</th>
                  <th scope="col">State</th>
                  <th scope="col">App</th>
                  <th scope="col">Agent (claimed)</th>
                  <th scope="col">Started</th>
                  <th scope="col" className="num">
                    Steps
                  </th>
                  <th scope="col">Tools</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((b) => {
                  const name = bundleName(b);
                  return (
                    <tr key={b.bundleId} data-bundle-id={b.bundleId}>
                      <td className="bundle-id">
                        <button type="button" className="link" onClick={() => onOpen(b.bundleId)}>
                          {name}
                        </button>
                        <span className="mono hint bundle-id-text">{b.bundleId}</span>
                      </td>
                      <td>
                        <span className={`state state-${b.state}`}>{b.state}</span>
                        {b.state === 'killed' && b.reason && <span className="row-reason">{b.reason}</span>}
                      </td>
                      <td className="nowrap">{b.appName}</td>
                      <td>{b.agentName}</td>
                      <td className="nowrap">{formatTimestamp(b.startedAt)}</td>
                      <td className="num">{b.steps}</td>
                      <td>
                        <BundleTools
                          name={name}
                          task={props.tasks[b.bundleId]}
                          recording={b.state === 'open'}
                          full={false}
                          onVerify={() => props.onVerify(b.bundleId)}
                          exporting={props.exports.find((e) => e.bundleId === b.bundleId) ?? null}
                          onExport={(format) => props.onExport(b.bundleId, format)}
                          onReveal={() => props.onReveal(b.bundleId)}
                          onCopyPath={() => props.onCopyPath(b.bundleId)}
                          onDelete={() => props.onDelete(b.bundleId)}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
