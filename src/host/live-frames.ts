// The host's fan-out of live frames to its UIs: every kept frame of every live session goes to
// each subscriber; a subscriber that joins late first gets each session's latest frame, so an
// idle page (which paints nothing new) still shows. Nothing is queued here: a transport that
// cannot keep up drops frames itself (only the newest matters).
import type { LiveFrame } from '../ui-protocol/index.js';

export class LiveFrames {
  private readonly latest = new Map<string, LiveFrame>();
  private readonly listeners = new Set<(frame: LiveFrame) => void>();

  constructor(private readonly log: (message: string) => void = () => {}) {}

  publish(frame: LiveFrame): void {
    this.latest.set(frame.sessionId, frame);
    for (const listener of [...this.listeners]) {
      try {
        listener(frame);
      } catch (error) {
        this.log(`live frame listener failed: ${(error as Error).message}`);
      }
    }
  }

  /** The session ended: its frames are no longer shown to anyone who joins. */
  end(sessionId: string): void {
    this.latest.delete(sessionId);
  }

  subscribe(listener: (frame: LiveFrame) => void): () => void {
    this.listeners.add(listener);
    for (const frame of this.latest.values()) listener(frame);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
