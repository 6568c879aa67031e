// The recorder of one session: the target's CDP screencast, each frame passed through the
// capture-safe gate (frame-gate.ts), kept frames sent to the live view and stored in the
// bundle's recording within the byte limits. The screencast runs only while the target is
// safe: it stops the moment the gate hears otherwise and starts again when safe. It never
// touches the act path: frames are acknowledged at once and written on the recording's own queue.
import type { BundleRecording } from '../bundle/recording.js';
import type { CdpTransport, Dispose } from '../targets/types.js';
import { FrameGate, type CaptureDecision, type CaptureStateSource } from './frame-gate.js';
import { jpegSize } from './jpeg-size.js';
import { ByteBudget, DEFAULT_RECORDING_LIMITS, type RecordingLimits } from './limits.js';

/** A frame that passed the gate, as the live view gets it. */
export interface LiveFrame {
  /** 1, 2, 3, ... for the session's kept frames. */
  seq: number;
  /** When the browser painted it (ms since the epoch). */
  at: number;
  /** The JPEG's pixel size. */
  width: number;
  height: number;
  /** The page's viewport in CSS pixels (click points are in these). */
  viewport: { width: number; height: number };
  data: Buffer;
}

export type CaptureStatus =
  | { state: 'starting' }
  | { state: 'live' }
  | { state: 'paused'; reason: string }
  | { state: 'stopped' };

export interface RecorderOptions {
  transport: CdpTransport;
  source: CaptureStateSource;
  /** Where kept frames are stored; without it frames only go live. */
  recording?: BundleRecording;
  limits?: RecordingLimits;
  /** JPEG quality of the screencast. Default 80. */
  quality?: number;
  now?: () => number;
  log?: (message: string) => void;
  onFrame?: (frame: LiveFrame) => void;
  onStatus?: (status: CaptureStatus) => void;
}

export interface Recorder {
  readonly status: CaptureStatus;
  /** The latest kept frame, or null. */
  latest(): LiveFrame | null;
  /** Takes a still picture under the per-frame rule; null when it may not be kept. */
  vouch<T>(take: () => Promise<T>): Promise<T | null>;
  /** Counts, for tests and the log. */
  readonly stats: { received: number; kept: number; dropped: number; stored: number };
  /** Stops the screencast. Frames already kept are with the recording's queue (the bundle's seal writes them). */
  stop(): Promise<void>;
}

interface ScreencastFrameEvent {
  data: string;
  sessionId: number;
  metadata?: { timestamp?: number; deviceWidth?: number; deviceHeight?: number };
}

const NOT_SAFE = 'not capture-safe';

export function startRecorder(options: RecorderOptions): Recorder {
  const { transport } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const gate = new FrameGate(options.source, { now });
  const budget = new ByteBudget(options.limits ?? DEFAULT_RECORDING_LIMITS, options.recording?.bytes ?? 0);
  const stats = { received: 0, kept: 0, dropped: 0, stored: 0 };
  let status: CaptureStatus = { state: 'starting' };
  let stopped = false;
  let casting = false;
  let wanted = false;
  let control: Promise<void> = Promise.resolve();
  let order: Promise<void> = Promise.resolve();
  let latest: LiveFrame | null = null;
  let seq = 0;
  /** The reason of the gap the recording is in (nothing stored since), or null while it records. */
  let gap: string | null = null;
  let recordingBroken = false;
  const disposers: Dispose[] = [];

  function setStatus(next: CaptureStatus): void {
    if (JSON.stringify(next) === JSON.stringify(status)) return;
    status = next;
    options.onStatus?.(next);
  }

  function markGap(reason: string, at = now()): void {
    if (!options.recording || recordingBroken || gap === reason) return;
    gap = reason;
    options.recording.recordGap(at, reason).catch((error: unknown) => log(`recording gap not written: ${(error as Error).message}`));
  }

  async function screencastParams(): Promise<Record<string, unknown>> {
    // The viewport at the device's scale: a frame as sharp as the page is on screen.
    const metrics = await transport
      .send<{ cssVisualViewport?: { clientWidth: number; clientHeight: number }; visualViewport?: { clientWidth: number } }>('Page.getLayoutMetrics')
      .catch(() => null);
    const css = metrics?.cssVisualViewport;
    const scale = css && metrics?.visualViewport ? metrics.visualViewport.clientWidth / css.clientWidth : 1;
    const params: Record<string, unknown> = { format: 'jpeg', quality: options.quality ?? 80, everyNthFrame: 1 };
    if (css) {
      params.maxWidth = Math.round(css.clientWidth * scale);
      params.maxHeight = Math.round(css.clientHeight * scale);
    }
    return params;
  }

  /** Brings the screencast to what is wanted, one change at a time. */
  function want(on: boolean): void {
    wanted = on && !stopped;
    // Stopping counts at once: frames that still arrive are dropped by `casting` and the gate.
    if (!wanted) casting = false;
    control = control.then(async () => {
      try {
        if (wanted && !casting) {
          await transport.send('Page.startScreencast', await screencastParams());
          casting = wanted;
          if (!wanted) await transport.send('Page.stopScreencast');
        } else if (!wanted) {
          await transport.send('Page.stopScreencast');
        }
      } catch (error) {
        if (!stopped) log(`screencast ${wanted ? 'start' : 'stop'} failed: ${(error as Error).message}`);
      }
    });
  }

  function onDecision(decision: CaptureDecision): void {
    if (stopped) return;
    if (decision.state === 'safe') {
      setStatus({ state: 'live' });
      want(true);
    } else {
      want(false);
      setStatus({ state: 'paused', reason: NOT_SAFE });
      markGap(decision.reason ? `${NOT_SAFE}: ${decision.reason}` : NOT_SAFE);
    }
  }

  function keep(event: ScreencastFrameEvent, paintedAt: number): void {
    const data = Buffer.from(event.data, 'base64');
    const size = jpegSize(data) ?? { width: 0, height: 0 };
    const frame: LiveFrame = {
      seq: ++seq,
      at: paintedAt,
      width: size.width,
      height: size.height,
      viewport: { width: event.metadata?.deviceWidth ?? size.width, height: event.metadata?.deviceHeight ?? size.height },
      data,
    };
    latest = frame;
    stats.kept += 1;
    try {
      options.onFrame?.(frame);
    } catch (error) {
      log(`live frame listener failed: ${(error as Error).message}`);
    }
    const recording = options.recording;
    if (!recording || recordingBroken) return;
    const over = budget.take(data.length, now());
    if (over) return markGap(over, paintedAt);
    gap = null;
    stats.stored += 1;
    recording.recordFrame({ data, at: paintedAt, width: frame.width, height: frame.height }).catch((error: unknown) => {
      // A full disk ends the session through the events; the recording just stops here.
      recordingBroken = true;
      log(`recording stopped: ${(error as Error).message}`);
    });
  }

  disposers.push(
    transport.on('Page.screencastFrame', (params) => {
      const event = params as ScreencastFrameEvent;
      transport.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
      stats.received += 1;
      if (stopped || !casting) {
        stats.dropped += 1;
        return;
      }
      const paintedAt = typeof event.metadata?.timestamp === 'number' ? event.metadata.timestamp * 1000 : now();
      const admitted = gate.admit(typeof event.metadata?.timestamp === 'number' ? paintedAt : undefined);
      // Decided in arrival order, so the recording keeps the order the page was painted in.
      order = order.then(async () => {
        if (await admitted && !stopped) keep(event, paintedAt);
        else stats.dropped += 1;
      });
    }),
    transport.on('Page.frameNavigated', (params) => {
      const frame = (params as { frame?: { parentId?: string } } | undefined)?.frame;
      if (!frame || frame.parentId) return;
      // A new document has not been checked yet: not safe until it is.
      gate.observe({ state: 'unknown', reason: 'the page navigated; its new document is being checked' });
      void gate.checkAfterNow();
    }),
    gate.onChange(onDecision),
  );
  void gate.checkAfterNow();

  return {
    get status() {
      return status;
    },
    get stats() {
      return { ...stats };
    },
    latest: () => latest,
    vouch: (take) => gate.vouch(take),
    async stop() {
      if (stopped) return;
      stopped = true;
      gate.close();
      for (const dispose of disposers.splice(0)) dispose();
      want(false);
      setStatus({ state: 'stopped' });
      // Frames already admitted go to the recording's queue; nothing waits on the page here.
      await order;
    },
  };
}
