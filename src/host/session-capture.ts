// The capture of one session's target, from arming until the session ends: the frame gate (the per-frame capture-safe rule, for
// screencast frames and step pictures alike, fed by the driver's capture watch) and the
// recorder (screencast → gate → live view and the bundle's recording). A resource of the
// session (session-resources.ts): started when the driver is attached, stopped when it is let go.
import type { BundleRecording } from '../bundle/recording.js';
import { FrameGate } from '../capture/frame-gate.js';
import { DEFAULT_RECORDING_LIMITS, type RecordingLimits } from '../capture/limits.js';
import { startRecorder, type Recorder } from '../capture/recorder.js';
import type { CdpTransport, TargetDriver } from '../targets/types.js';
import type { CaptureView } from '../ui-protocol/index.js';
import type { LiveFrames } from './live-frames.js';

/** What the capture needs from its host. */
export interface CaptureDeps {
  /** Continuous recording and the live view; false only to measure what they cost. Default true. */
  recording?: boolean;
  /** The recording's byte limits as the settings say now. */
  limits?: () => RecordingLimits | undefined;
  /** Where kept frames go to the UIs. */
  frames: LiveFrames;
}

export class SessionCapture {
  /** Where the agent last clicked, in the top page's CSS pixels (the live view draws it). */
  lastClick: { x: number; y: number; at: number } | null = null;
  private gate: FrameGate | null = null;
  private recorder: Recorder | null = null;
  private stopped = false;

  constructor(
    private readonly sessionId: string,
    private readonly deps: CaptureDeps & { now: () => number; log: (message: string) => void },
    /** Told when what the UI shows of the capture changes. */
    private readonly changed: () => void,
  ) {}

  /** Starts watching the target through `driver` and, unless recording is off, its screencast over `transport`. */
  start(driver: TargetDriver, transport: CdpTransport, recording: BundleRecording | undefined): void {
    if (this.stopped || this.gate) return;
    const gate = new FrameGate(driver, { now: this.deps.now });
    this.gate = gate;
    gate.onChange(() => this.changed());
    if (this.deps.recording === false) return;
    const { sessionId } = this;
    this.recorder = startRecorder({
      transport,
      gate,
      ...(recording ? { recording } : {}),
      limits: this.deps.limits?.() ?? DEFAULT_RECORDING_LIMITS,
      now: this.deps.now,
      log: (message) => this.deps.log(`${sessionId}: ${message}`),
      onFrame: (frame) => this.deps.frames.publish({ type: 'frame', sessionId, ...frame }),
    });
  }

  /** What the UI shows: `paused` with the driver's reason while the target is not capture-safe. */
  get view(): CaptureView {
    if (this.stopped) return { state: 'stopped' };
    const current = this.gate?.current;
    if (!current) return { state: 'starting' };
    return current.state === 'safe' ? { state: 'live' } : { state: 'paused', reason: current.reason };
  }

  /**
   * A picture of the target under the per-frame rule (safe before it is taken and in a check
   * after it); null when it may not be kept. The driver itself refuses an unsafe target.
   */
  async picture(driver: TargetDriver): Promise<{ mime: string; data: Buffer } | null> {
    if (!this.gate) return null;
    return this.gate.vouch(() => driver.screenshot());
  }

  /**
   * Stops at once: no frame is kept or shown from this call on (frames waiting on their check
   * are dropped). Resolves once the screencast is told to stop; frames already kept are on the
   * recording's queue, which the bundle's seal writes out.
   */
  stop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    this.deps.frames.end(this.sessionId);
    const stopping = this.recorder?.stop() ?? Promise.resolve();
    this.gate?.close();
    return stopping;
  }
}
