import { describe, expect, it } from 'vitest';
import { buildTimeline, clampTime, formatClock, frameAt, lineAt, stepIndexAt, stepTimes, type TimelineLine } from './timeline.js';

const frame = (at: number, n: number): TimelineLine => ({ type: 'frame', at, file: `recording/${n}.jpg`, width: 1280, height: 720 });
const gap = (at: number, reason: string): TimelineLine => ({ type: 'gap', at, reason });

// 0 s: frame 1; 2 s: frame 2; 3 s: not capture-safe; 5 s: frame 3; 8 s: session ended.
const LINES = [frame(1000, 1), frame(3000, 2), gap(4000, 'not capture-safe: private'), frame(6000, 3), gap(9000, 'session ended')];

describe('the recording timeline', () => {
  it('runs from the first line to the closing gap, which is not shown itself', () => {
    const timeline = buildTimeline(LINES)!;
    expect(timeline.startAt).toBe(1000);
    expect(timeline.duration).toBe(8000);
    expect(timeline.endReason).toBe('session ended');
    expect(timeline.lines.map((l) => [l.type, l.start, l.end])).toEqual([
      ['frame', 0, 2000],
      ['frame', 2000, 3000],
      ['gap', 3000, 5000],
      ['frame', 5000, 8000],
    ]);
  });

  it('shows the frame started last at or before t, a gap with its reason, and holds the last frame at the end', () => {
    const timeline = buildTimeline(LINES)!;
    expect(frameAt(timeline, 0)?.file).toBe('recording/1.jpg');
    expect(frameAt(timeline, 1999)?.file).toBe('recording/1.jpg');
    expect(frameAt(timeline, 2000)?.file).toBe('recording/2.jpg');
    expect(frameAt(timeline, 3500)).toBeNull();
    expect(lineAt(timeline, 3500)).toMatchObject({ type: 'gap', reason: 'not capture-safe: private' });
    expect(frameAt(timeline, 8000)?.file).toBe('recording/3.jpg');
    // Outside the recording: held at its ends.
    expect(frameAt(timeline, 99_000)?.file).toBe('recording/3.jpg');
    expect(frameAt(timeline, -5)?.file).toBe('recording/1.jpg');
    expect(clampTime(timeline, Number.NaN)).toBe(0);
  });

  it('a recording without a frame has nothing to play; one without a closing gap ends at its last frame', () => {
    expect(buildTimeline([])).toBeNull();
    expect(buildTimeline([gap(5, 'not capture-safe'), gap(9, 'session ended')])).toBeNull();
    const open = buildTimeline([frame(10, 1), frame(30, 2)])!;
    expect(open.duration).toBe(20);
    expect(open.endReason).toBeNull();
    expect(open.lines.at(-1)).toMatchObject({ start: 20, end: 20 });
    // A single frame, closed: shown for the whole recording.
    const one = buildTimeline([frame(10, 1), gap(510, 'session killed: kill control')])!;
    expect([one.duration, one.lines.length, frameAt(one, 250)?.file]).toEqual([500, 1, 'recording/1.jpg']);
  });

  it('a line earlier than the one before it (a clock step) is held at that time', () => {
    const timeline = buildTimeline([frame(1000, 1), frame(3000, 2), frame(2500, 3), gap(4000, 'session ended')])!;
    expect(timeline.lines.map((l) => l.start)).toEqual([0, 2000, 2000]);
    expect(frameAt(timeline, 2000)?.file).toBe('recording/3.jpg');
  });

  it('places each step on the clock, in order and inside the recording', () => {
    const timeline = buildTimeline(LINES)!;
    const times = stepTimes(timeline, [{ at: 500 }, { at: 2500 }, { at: 2400 }, { at: 7000 }, { at: 20_000 }]);
    expect(times).toEqual([0, 1500, 1500, 6000, 8000]);
    expect(stepIndexAt(times, -1)).toBe(-1);
    expect(stepIndexAt([100, 200], 99)).toBe(-1);
    expect(stepIndexAt(times, 0)).toBe(0);
    expect(stepIndexAt(times, 1500)).toBe(2); // two steps at one moment: the later is current
    expect(stepIndexAt(times, 5999)).toBe(2);
    expect(stepIndexAt(times, 6000)).toBe(3);
    expect(stepIndexAt(times, 8000)).toBe(4);
    expect(stepIndexAt([], 10)).toBe(-1);
  });

  it('says times as m:ss, and h:mm:ss past an hour', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(65_400)).toBe('1:05');
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatClock(-10)).toBe('0:00');
  });
});
