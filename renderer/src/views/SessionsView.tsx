import type { BundleSummary } from '../../../src/ui-protocol/index.js';
import { formatTimestamp } from '../format.js';

export interface SessionsViewProps {
  /** null while the first load is on its way. */
  bundles: BundleSummary[] | null;
  error: string | null;
  onOpen(bundleId: string): void;
  onReload(): void;
}

/** Every recorded session's bundle, newest first; a bundle's id opens it. */
export function SessionsView({ bundles, error, onOpen, onReload }: SessionsViewProps) {
  const sorted = bundles ? [...bundles].sort((a, b) => b.startedAt - a.startedAt) : null;
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
      {sorted !== null && sorted.length > 0 && (
        <div className="table-wrap">
          <table className="bundles">
            <caption className="visually-hidden">Recorded demo sessions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Bundle</th>
                <th scope="col">State</th>
                <th scope="col">App</th>
                <th scope="col">Agent (claimed)</th>
                <th scope="col">Started</th>
                <th scope="col" className="num">
                  Steps
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((b) => (
                <tr key={b.bundleId} data-bundle-id={b.bundleId}>
                  <td className="bundle-id">
                    <button type="button" className="link mono" onClick={() => onOpen(b.bundleId)}>
                      {b.bundleId}
                    </button>
                  </td>
                  <td>
                    <span className={`state state-${b.state}`}>{b.state}</span>
                    {b.state === 'killed' && b.reason && <span className="row-reason">{b.reason}</span>}
                  </td>
                  <td className="nowrap">{b.appName}</td>
                  <td>{b.agentName}</td>
                  <td className="nowrap">{formatTimestamp(b.startedAt)}</td>
                  <td className="num">{b.steps}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
