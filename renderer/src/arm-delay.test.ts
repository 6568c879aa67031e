import { describe, expect, it } from 'vitest';
import { StabilityWatch } from './arm-delay.js';

const box = { x: 10, y: 20, width: 300, height: 200 };
/** Frames every 16 ms from `from` to `to` with the same box; returns the last answer. */
function run(watch: StabilityWatch, from: number, to: number, at = box): boolean {
  let armed = false;
  for (let t = from; t <= to; t += 16) armed = watch.frame({ at: t, box: at });
  return armed;
}

describe('StabilityWatch (Allow is armed after the dialog is visible and stable)', () => {
  it('arms only after the delay on screen and unmoved', () => {
    const watch = new StabilityWatch(750);
    expect(run(watch, 0, 704)).toBe(false);
    expect(run(watch, 720, 800)).toBe(true);
  });

  it('starts again when the dialog moves or changes size', () => {
    const watch = new StabilityWatch(750);
    expect(run(watch, 0, 800)).toBe(true);
    expect(watch.frame({ at: 816, box: { ...box, y: 21 } })).toBe(false);
    expect(run(watch, 832, 1500, { ...box, y: 21 })).toBe(false);
    expect(run(watch, 1516, 1600, { ...box, y: 21 })).toBe(true);
  });

  it('does not count time the page was hidden (no frames) or the dialog off screen', () => {
    const watch = new StabilityWatch(750);
    run(watch, 0, 100);
    // A tab in the background gets no frames: the next frame after the gap starts the wait.
    expect(watch.frame({ at: 5000, box })).toBe(false);
    expect(run(watch, 5016, 5600)).toBe(false);
    expect(watch.frame({ at: 5616, box: null })).toBe(false);
    expect(run(watch, 5632, 6300)).toBe(false);
    expect(run(watch, 6316, 6400)).toBe(true);
    watch.reset();
    expect(run(watch, 6416, 7100)).toBe(false);
    expect(run(watch, 7116, 7200)).toBe(true);
  });

  it('arms on a slow machine whose frames come irregularly', () => {
    const watch = new StabilityWatch(750);
    let armed = false;
    for (const at of [0, 400, 700, 1300, 1500]) armed = watch.frame({ at, box });
    expect(armed).toBe(true);
  });
});
