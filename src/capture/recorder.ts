// The recorder of one session: the target's CDP screencast, each frame passed through the
// capture-safe gate (frame-gate.ts), kept frames sent to the live view and stored in the
// bundle's recording within the byte limits. The screencast runs only while the gate believes
// the target safe: it stops the moment the gate hears otherwise and starts again when safe. It
// never touches the act path: frames are acknowledged at once and written on the recording's
// own queue.
import type { BundleRecording } from '../bundle/recording.js';
import type { CaptureStatus, CdpTransport, Dispose } from '../targets/types.js';
import type { FrameGate } from './frame-gate.js';
import { jpegSize } from './jpeg-size.js';
import { ByteBudget, DEFAULT_RECORDING_LIMITS, type RecordingLimits } from './limits.js';

/** A frame that passed the gate, as the live view gets it. */
export interface KeptFrame {
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

/**
 * Where the recording is: waiting for the first word of the page (`starting`), recording
 * (`live`), stopped because the target is not capture-safe (`paused`, with the driver's
 * reason, a sentence naming what the page lacks), or over (`stopped`).
 */
export type RecordingStatus =
  | { state: 'starting' }
  | { state: 'live' }
  | { state: 'paused'; reason: string }
  | { state: 'stopped' };

export interface RecorderOptions {
  transport: CdpTransport;
  /** The session's gate; the recorder listens to it but does not own it (it also vouches for step pictures). */
  gate: FrameGate;
  /** Where kept frames are stored; without it frames only go live. */
  recording?: BundleRecording;
  limits?: RecordingLimits;
  /** JPEG quality of the screencast. Default 80. */
  quality?: number;
  now?: () => number;
  log?: (message: string) => void;
  onFrame?: (frame: KeptFrame) => void;
  onStatus?: (status: RecordingStatus) => void;
}

export interface Recorder {
  readonly status: RecordingStatus;
  /** The latest kept frame, or null. */
  latest(): KeptFrame | null;
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

/** The gap reason of a pause (recording-format.ts's GapReason, with the driver's detail). */
const NOT_SAFE = 'not capture-safe';

/** The screencast's parameters: JPEG frames of the viewport at the device's scale. */
async function screencastParams(transport: CdpTransport, quality: number): Promise<Record<string, unknown>> {
  // The viewport at the device's scale: a frame as sharp as the page is on screen.
  const metrics = await transport
    .send<{ cssVisualViewport?: { clientWidth: number; clientHeight: number }; visualViewport?: { clientWidth: number } }>('Page.getLayoutMetrics')
    .catch(() => null);
  const css = metrics?.cssVisualViewport;
  const scale = css && metrics?.visualViewport ? metrics.visualViewport.clientWidth / css.clientWidth : 1;
  const params: Record<string, unknown> = { format: 'jpeg', quality, everyNthFrame: 1 };
  if (css) {
    params.maxWidth = Math.round(css.clientWidth * scale);
    params.maxHeight = Math.round(css.clientHeight * scale);
  }
  return params;
}

/** A screencast frame as the live view and the recording get it. */
function keptFrameOf(event: ScreencastFrameEvent, seq: number, paintedAt: number): KeptFrame {
  const data = Buffer.from(event.data, 'base64');
  const size = jpegSize(data) ?? { width: 0, height: 0 };
  return {
    seq,
    at: paintedAt,
    width: size.width,
    height: size.height,
    viewport: { width: event.metadata?.deviceWidth ?? size.width, height: event.metadata?.deviceHeight ?? size.height },
    data,
  };
}

/**
 * What goes into the bundle's recording: kept frames within the byte limits, and a gap with
 * its reason whenever frames stop being stored (not capture-safe, over a limit). A write that
 * fails stops the recording here; the session's own events end the session.
 */
class RecordingSink {
  /** The reason of the gap the recording is in (nothing stored since), or null while it records. */
  private inGap: string | null = null;
  private broken = false;

  constructor(
    private readonly recording: BundleRecording,
    private readonly budget: ByteBudget,
    private readonly now: () => number,
    private readonly log: (message: string) => void,
  ) {}

  gap(reason: string, at: number): void {
    if (this.broken || this.inGap === reason) return;
    this.inGap = reason;
    this.recording.recordGap(at, reason).catch((error: unknown) => this.log(`recording gap not written: ${(error as Error).message}`));
  }

  /** Stores the frame unless a limit is reached (a gap then); answers whether it was stored. */
  store(frame: KeptFrame): boolean {
    if (this.broken) return false;
    const over = this.budget.take(frame.data.length, this.now());
    if (over) {
      this.gap(over, frame.at);
      return false;
    }
    this.inGap = null;
    this.recording.recordFrame({ data: frame.data, at: frame.at, width: frame.width, height: frame.height }).catch((error: unknown) => {
      // A full disk ends the session through the events; the recording just stops here.
      this.broken = true;
      this.log(`recording stopped: ${(error as Error).message}`);
    });
    return true;
  }
}

export function startRecorder(options: RecorderOptions): Recorder {
  const { transport } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const { gate } = options;
  const sink = options.recording ? new RecordingSink(options.recording, new ByteBudget(options.limits ?? DEFAULT_RECORDING_LIMITS, options.recording.bytes), now, log) : null;
  const stats = { received: 0, kept: 0, dropped: 0, stored: 0 };
  let status: RecordingStatus = { state: 'starting' };
  let stopped = false;
  let casting = false;
  let wanted = false;
  let control: Promise<void> = Promise.resolve();
  let order: Promise<void> = Promise.resolve();
  let latest: KeptFrame | null = null;
  let seq = 0;
  const disposers: Dispose[] = [];

  function setStatus(next: RecordingStatus): void {
    if (JSON.stringify(next) === JSON.stringify(status)) return;
    status = next;
    options.onStatus?.(next);
  }

  /** Brings the screencast to what is wanted, one change at a time. */
  function want(on: boolean): void {
    wanted = on && !stopped;
    // Stopping counts at once: frames that still arrive are dropped by `casting` and the gate.
    if (!wanted) casting = false;
    control = control.then(async () => {
      try {
        if (wanted && !casting) {
          await transport.send('Page.startScreencast', await screencastParams(transport, options.quality ?? 80));
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

  function onCaptureChange(capture: CaptureStatus): void {
    if (stopped) return;
    if (capture.state === 'safe') {
      setStatus({ state: 'live' });
      want(true);
    } else {
      want(false);
      setStatus({ state: 'paused', reason: capture.reason });
      sink?.gap(`${NOT_SAFE}: ${capture.reason}`, now());
    }
  }

  function keep(event: ScreencastFrameEvent, paintedAt: number): void {
    const frame = keptFrameOf(event, ++seq, paintedAt);
    latest = frame;
    stats.kept += 1;
    try {
      options.onFrame?.(frame);
    } catch (error) {
      log(`live frame listener failed: ${(error as Error).message}`);
    }
    if (sink?.store(frame)) stats.stored += 1;
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
    gate.onChange(onCaptureChange),
  );
  // The gate may have heard from the page already (a recorder started after its first report).
  if (gate.current) onCaptureChange(gate.current);

  return {
    get status() {
      return status;
    },
    get stats() {
      return { ...stats };
    },
    latest: () => latest,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const dispose of disposers.splice(0)) dispose();
      want(false);
      setStatus({ state: 'stopped' });
      // Frames already admitted go to the recording's queue; nothing waits on the page here.
      await order;
    },
  };
}
