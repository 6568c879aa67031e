import { useEffect, useMemo, useRef, useState } from 'react';
import type { BundleDetail, BundleStep } from '../../../src/ui-protocol/index.js';
import { captionText, requesterText } from '../../../src/ui-protocol/index.js';
import { bundleName } from '../bundle-filters.js';
import { describeEnd, describeReason, formatTimestamp, stepPictureAlt } from '../format.js';
import type { BundleTask } from '../store.js';
import { BundleTools } from './BundleTools.js';
import { StepCaption } from './Caption.js';
import type { BundleToolHandlers } from './SessionsView.js';
import { Player, modelOf, type PlayerHandle } from './Player.js';
import { StepPicture } from './StepPicture.js';

type SaveCaption = (receiptId: string, caption: string | null) => Promise<{ ok: true } | { ok: false; message: string }>;

export interface BundleViewProps extends BundleToolHandlers {
  bundleId: string;
  /** null while loading. */
  detail: BundleDetail | null;
  error: string | null;
  task: BundleTask | undefined;
  pictureUrl(bundleId: string, picture: string): string;
  onSaveCaption: SaveCaption;
  onBack(): void;
}

function Step({ bundleId, step, number, editable, pictureUrl, onSaveCaption, onShowInPlayer }: {
  bundleId: string;
  step: BundleStep;
  number: number;
  editable: boolean;
  pictureUrl: BundleViewProps['pictureUrl'];
  onSaveCaption: SaveCaption;
  /** Null when the bundle has no player. */
  onShowInPlayer: (() => void) | null;
}) {
  const [whole, setWhole] = useState(false);
  const zoomable = Boolean(step.picture && step.box && step.viewport);
  return (
    <li className="step">
      <div className="step-text">
        <p className="step-title">
          <span className="step-number">Step {number}</span>
        </p>
        <StepCaption number={number} step={step} onSave={editable ? (caption) => onSaveCaption(step.receiptId, caption) : null} />
        {onShowInPlayer && (
          <button type="button" className="button subtle" aria-label={`Show step ${number} in the player`} onClick={onShowInPlayer}>
            Show in the player
          </button>
        )}
        <details className="step-record">
          <summary>Receipt</summary>
          <dl className="step-facts">
            <dt>Op</dt>
            <dd className="op">{step.op}</dd>
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
        </details>
      </div>
      {step.picture ? (
        <div className="step-figure">
          <StepPicture url={pictureUrl(bundleId, step.picture)} step={step} whole={whole} alt={`${stepPictureAlt(number, step)}. ${captionText(step.caption)}`} />
          {zoomable && (
            <button type="button" className="button subtle" aria-pressed={whole} onClick={() => setWhole(!whole)}>
              {whole ? 'Zoom to the step' : 'Show the whole frame'}
            </button>
          )}
        </div>
      ) : (
        <p className="no-picture">No picture was captured for this step.</p>
      )}
    </li>
  );
}

/** One bundle, as a demo first: its name, its tools, every step with its caption and picture; the record below. */
export function BundleView(props: BundleViewProps) {
  const { bundleId, detail, error, pictureUrl, onBack } = props;
  const summary = detail?.summary;
  const headingRef = useRef<HTMLHeadingElement>(null);
  // A bundle opens at its top, with the focus on its heading (the list it came from is gone).
  useEffect(() => {
    window.scrollTo(0, 0);
    headingRef.current?.focus({ preventScroll: true });
  }, [bundleId]);
  const player = useRef<PlayerHandle>(null);
  const playable = useMemo(() => (detail ? modelOf(detail) !== null : false), [detail]);
  const name = summary ? bundleName(summary) : 'Bundle';
  const recording = summary?.state === 'open';
  return (
    <section className="panel" aria-labelledby="bundle-title">
      <div className="panel-head">
        <button type="button" className="button subtle" onClick={onBack}>
          ← All sessions
        </button>
      </div>
      <h2 id="bundle-title" ref={headingRef} tabIndex={-1}>
        {summary ? `Demo of ${summary.appName}` : 'Bundle'}
      </h2>
      <p className="hint">
        {summary && (
          <>
            {name} · bundle <span className="mono">{bundleId}</span>
          </>
        )}
        {!summary && <span className="mono">{bundleId}</span>}
      </p>
      {error && (
        <p className="error" role="alert">
          Could not load this bundle: {error}
        </p>
      )}
      {!detail && !error && <p className="hint">Loading…</p>}
      {detail && summary && (
        <>
          <BundleTools
            name={name}
            task={props.task}
            recording={recording}
            full
            onVerify={() => props.onVerify(bundleId)}
            exporting={props.exports.find((e) => e.bundleId === bundleId) ?? null}
            onExport={(format) => props.onExport(bundleId, format)}
            onReveal={() => props.onReveal(bundleId)}
            onCopyPath={() => props.onCopyPath(bundleId)}
            onDelete={() => props.onDelete(bundleId)}
          />
          {detail.edits?.problem && (
            <p className="error" role="alert">
              The caption edits beside this bundle cannot be trusted ({detail.edits.problem}); the captions from the recording are shown.
            </p>
          )}
          {playable && (
            <>
              <h3>Recording</h3>
              <Player ref={player} bundleId={bundleId} detail={detail} pictureUrl={pictureUrl} />
            </>
          )}
          <h3>Steps ({detail.steps.length})</h3>
          {detail.steps.length === 0 ? (
            <p className="empty">No steps were taken.</p>
          ) : (
            <ol className="steps">
              {detail.steps.map((step, i) => (
                <Step
                  key={step.receiptId}
                  bundleId={bundleId}
                  step={step}
                  number={i + 1}
                  editable={!recording}
                  pictureUrl={pictureUrl}
                  onSaveCaption={props.onSaveCaption}
                  onShowInPlayer={playable ? () => player.current?.showStep(i) : null}
                />
              ))}
            </ol>
          )}

          <h3>Record</h3>
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

          <h3>End</h3>
          <p className="end">{describeEnd(summary.state, summary.reason, summary.endedAt)}</p>
        </>
      )}
    </section>
  );
}
