import { useEffect, useRef } from 'react';
import { requesterText, type BundleDetail } from '../../../src/ui-protocol/index.js';
import { describeEnd, describeReason, formatTimestamp, stepPictureAlt } from '../format.js';

export interface BundleViewProps {
  bundleId: string;
  /** null while loading. */
  detail: BundleDetail | null;
  error: string | null;
  pictureUrl(bundleId: string, picture: string): string;
  onBack(): void;
}

/** One bundle: who consented to what, then every step in order with the picture taken after it. */
export function BundleView({ bundleId, detail, error, pictureUrl, onBack }: BundleViewProps) {
  const summary = detail?.summary;
  const headingRef = useRef<HTMLHeadingElement>(null);
  // A bundle opens at its top, with the focus on its heading (the list it came from is gone).
  useEffect(() => {
    window.scrollTo(0, 0);
    headingRef.current?.focus({ preventScroll: true });
  }, [bundleId]);
  return (
    <section className="panel" aria-labelledby="bundle-title">
      <div className="panel-head">
        <button type="button" className="button subtle" onClick={onBack}>
          ← All sessions
        </button>
      </div>
      <h2 id="bundle-title" ref={headingRef} tabIndex={-1}>
        Bundle <span className="mono">{bundleId}</span>
      </h2>
      {error && (
        <p className="error" role="alert">
          Could not load this bundle: {error}
        </p>
      )}
      {!detail && !error && <p className="hint">Loading…</p>}
      {detail && summary && (
        <>
          <dl className="facts">
            <dt>State</dt>
            <dd>
              <span className={`state state-${summary.state}`}>{summary.state}</span>
              {summary.reason && <span className="reason"> {describeReason(summary.reason)}</span>}
            </dd>
            <dt>App</dt>
            <dd>
              {summary.appName} <span className="hint mono">{summary.appId}</span>
            </dd>
            <dt>Agent</dt>
            <dd>claims to be {summary.agentName}</dd>
            <dt>Started</dt>
            <dd>{formatTimestamp(summary.startedAt)}</dd>
            <dt>Ended</dt>
            <dd>{summary.endedAt === null ? 'still running' : formatTimestamp(summary.endedAt)}</dd>
            <dt>Session</dt>
            <dd className="mono">{summary.sessionId}</dd>
          </dl>

          <h3>Consent</h3>
          <p className="consent-record">
            <strong>{detail.consent.answer === 'allow' ? 'Allowed' : detail.consent.answer}</strong> by {detail.consent.answeredBy} at{' '}
            {formatTimestamp(detail.consent.answeredAt)}, for an agent claiming to be <strong>{detail.consent.agentName}</strong> to drive{' '}
            <strong>{detail.consent.appName}</strong> <span className="mono hint">({detail.consent.appId})</span>. Asked at{' '}
            {formatTimestamp(detail.consent.requestedAt)}.
          </p>
          <p className="consent-requester">
            Asked by (the process, as the operating system reported it):{' '}
            {detail.consent.requester ? (
              <bdi className="mono">{requesterText(detail.consent.requester)}</bdi>
            ) : (
              <span className="hint">not recorded (a bundle from before the host recorded it)</span>
            )}
          </p>

          <h3>Steps ({detail.steps.length})</h3>
          {detail.steps.length === 0 ? (
            <p className="empty">No steps were taken.</p>
          ) : (
            <ol className="steps">
              {detail.steps.map((step, i) => (
                <li key={step.receiptId} className="step">
                  <div className="step-text">
                    <p className="step-title">
                      <span className="step-number">Step {i + 1}</span> <span className="op">{step.op}</span>
                    </p>
                    <dl className="step-facts">
                      <dt>Target</dt>
                      <dd>
                        {step.role} “{step.label}”
                      </dd>
                      {step.text !== undefined && (
                        <>
                          <dt>Text</dt>
                          <dd className="mono">“{step.text}”</dd>
                        </>
                      )}
                      {step.key !== undefined && (
                        <>
                          <dt>Key</dt>
                          <dd className="mono">{step.key}</dd>
                        </>
                      )}
                      <dt>At</dt>
                      <dd>{formatTimestamp(step.at)}</dd>
                      <dt>Receipt</dt>
                      <dd className="mono">{step.receiptId}</dd>
                    </dl>
                  </div>
                  {step.picture ? (
                    <img className="picture" src={pictureUrl(bundleId, step.picture)} alt={stepPictureAlt(i + 1, step)} loading="lazy" />
                  ) : (
                    <p className="no-picture">No picture was captured for this step.</p>
                  )}
                </li>
              ))}
            </ol>
          )}

          <h3>End</h3>
          <p className="end">{describeEnd(summary.state, summary.reason, summary.endedAt)}</p>
        </>
      )}
    </section>
  );
}
