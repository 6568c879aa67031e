// How much of a session's screencast is stored: at most so many bytes per session and per
// second, so a busy page cannot fill the disk. A frame over a limit is not stored (the live view
// still shows it) and the recording marks a gap; the session goes on.

export interface RecordingLimits {
  /** Bytes of frames one session may store. */
  maxSessionBytes: number;
  /** Bytes of frames stored in any one second. */
  maxBytesPerSecond: number;
}

/** 512 MiB a session, 4 MiB a second: about 60 fresh 1280x720 frames of a busy page a second. */
export const DEFAULT_RECORDING_LIMITS: Readonly<RecordingLimits> = Object.freeze({
  maxSessionBytes: 512 * 1024 * 1024,
  maxBytesPerSecond: 4 * 1024 * 1024,
});

/** Counts stored bytes against the limits; `take` says whether a frame of `size` fits now. */
export class ByteBudget {
  private total = 0;
  private readonly window: { at: number; size: number }[] = [];
  private windowBytes = 0;

  constructor(private readonly limits: RecordingLimits, startBytes = 0) {
    this.total = startBytes;
  }

  /** Null when the frame fits (and is counted), else which limit it hits. */
  take(size: number, at: number): string | null {
    if (this.total + size > this.limits.maxSessionBytes) return `recording limit: ${this.limits.maxSessionBytes} bytes per session`;
    while (this.window.length > 0 && (this.window[0] as { at: number }).at <= at - 1000) {
      this.windowBytes -= (this.window.shift() as { size: number }).size;
    }
    if (this.windowBytes + size > this.limits.maxBytesPerSecond) return `recording limit: ${this.limits.maxBytesPerSecond} bytes per second`;
    this.window.push({ at, size });
    this.windowBytes += size;
    this.total += size;
    return null;
  }
}
