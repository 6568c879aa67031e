// Allow is armed only once the consent dialog has been on screen, unmoved, for ARM_DELAY_MS:
// a click aimed at something else, or made as the dialog appears or is swapped under the
// pointer, cannot land on it. Frames are watched (requestAnimationFrame), so time in a hidden
// tab or window does not count, and any move or resize starts the wait again.
import { useEffect, useState, type RefObject } from 'react';

/** How long the dialog must be visible and stable before Allow works (docs/security.md). */
export const ARM_DELAY_MS = 750;
/**
 * A gap between frames longer than this means the page was not being shown (a hidden page
 * gets no frames). Generous, so a slow, loaded machine's irregular frames still arm; hiding
 * is also caught at once by the visibilitychange event.
 */
const FRAME_GAP_MS = 2000;

export interface Frame {
  /** The frame's time (ms). */
  at: number;
  /** Where the dialog is, or null when it is not on screen. */
  box: { x: number; y: number; width: number; height: number } | null;
}

/** Feeds frames, answers whether the delay has passed with the dialog on screen and unmoved. */
export class StabilityWatch {
  private since: number | null = null;
  private lastAt: number | null = null;
  private lastBox = '';

  constructor(private readonly delayMs = ARM_DELAY_MS) {}

  /** Starts the wait again (the page was hidden). */
  reset(): void {
    this.since = null;
  }

  frame({ at, box }: Frame): boolean {
    const key = box ? `${box.x},${box.y},${box.width},${box.height}` : '';
    const gap = this.lastAt !== null && at - this.lastAt > FRAME_GAP_MS;
    this.lastAt = at;
    if (!box || key !== this.lastBox || gap || this.since === null) {
      this.lastBox = key;
      this.since = box ? at : null;
      return false;
    }
    return at - this.since >= this.delayMs;
  }
}

function boxOf(element: HTMLElement | null): Frame['box'] {
  if (!element || document.visibilityState !== 'visible') return null;
  const r = element.getBoundingClientRect();
  const onScreen = r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth;
  return onScreen ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
}

/** True once `ref`'s element has been visible and stable for `delayMs`; false again if it moves. */
export function useArmedWhenStable(ref: RefObject<HTMLElement | null>, delayMs = ARM_DELAY_MS): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const watch = new StabilityWatch(delayMs);
    let frame = 0;
    const tick = (at: number): void => {
      setArmed(watch.frame({ at, box: boxOf(ref.current) }));
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    const onVisibility = (): void => {
      watch.reset();
      setArmed(false);
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [ref, delayMs]);
  return armed;
}
