// The live view: the target of one live session as it is now, with the current step and the
// point the agent last clicked drawn over it, and a plain status when frames stop because the
// target is not capture-safe. Frames are drawn as they come, the newest only: one decoding at a
// time, a frame that arrives meanwhile replaces the one waiting (none is queued).
import { useEffect, useRef, useState } from 'react';
import type { HostBridge, LiveFrame, LiveSession } from '../../../src/ui-protocol/index.js';

export interface LiveViewProps {
  session: LiveSession;
  subscribeFrames: HostBridge['subscribeFrames'];
  /** `small` in Electron's kill-control window. */
  size?: 'small' | 'large';
}

/** The caption of the current step, e.g. `Step 2: click button "Submit"`. */
export function stepCaption(session: LiveSession): string {
  const step = session.lastStep;
  if (!step) return 'No step yet';
  return `Step ${step.index + 1}: ${step.op} ${step.role} "${step.label}"`;
}

function useLatestFrame(sessionId: string, subscribeFrames: HostBridge['subscribeFrames'], canvas: React.RefObject<HTMLCanvasElement | null>) {
  const [shown, setShown] = useState<{ seq: number; viewport: LiveFrame['viewport'] } | null>(null);
  useEffect(() => {
    let waiting: LiveFrame | null = null;
    let drawing = false;
    let disposed = false;
    const draw = async (): Promise<void> => {
      drawing = true;
      while (waiting && !disposed) {
        const frame = waiting;
        waiting = null;
        try {
          const bitmap = await createImageBitmap(new Blob([frame.data as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }));
          const target = canvas.current;
          if (target && !disposed) {
            if (target.width !== bitmap.width || target.height !== bitmap.height) {
              target.width = bitmap.width;
              target.height = bitmap.height;
            }
            target.getContext('2d')?.drawImage(bitmap, 0, 0);
            target.dataset.frameSeq = String(frame.seq);
            target.dataset.frameAt = String(frame.at);
            setShown({ seq: frame.seq, viewport: frame.viewport });
          }
          bitmap.close();
        } catch {
          // A frame that does not decode is skipped; the next one replaces it.
        }
      }
      drawing = false;
    };
    const unsubscribe = subscribeFrames((frame) => {
      if (frame.sessionId !== sessionId) return;
      waiting = frame;
      if (!drawing) void draw();
    });
    return () => {
      disposed = true;
      unsubscribe();
    };
  }, [sessionId, subscribeFrames, canvas]);
  return shown;
}

export function LiveView({ session, subscribeFrames, size = 'large' }: LiveViewProps) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const shown = useLatestFrame(session.sessionId, subscribeFrames, canvas);
  const paused = session.capture?.state === 'paused';
  const caption = stepCaption(session);
  const click = session.lastClick;
  const viewport = shown?.viewport;
  const label = `Live view of ${session.appName}${paused ? ' (paused: not capture-safe)' : ''}. ${caption}`;
  return (
    <figure className={`live-view live-view-${size}`} data-session-id={session.sessionId}>
      <div className="live-view-stage">
        <canvas ref={canvas} role="img" aria-label={label} className={paused ? 'live-view-canvas paused' : 'live-view-canvas'} />
        {click && viewport && viewport.width > 0 && viewport.height > 0 && (
          <span
            className="live-view-click"
            aria-hidden="true"
            style={{ left: `${(click.x / viewport.width) * 100}%`, top: `${(click.y / viewport.height) * 100}%` }}
          />
        )}
        <span className="live-view-step" aria-hidden="true">
          {caption}
        </span>
        {!shown && !paused && <span className="live-view-waiting">Waiting for the first frame…</span>}
      </div>
      {paused && (
        <p className="live-view-status" role="status">
          Paused: not capture-safe
        </p>
      )}
    </figure>
  );
}
