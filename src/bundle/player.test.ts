import { describe, expect, it } from 'vitest';
import { PlayerClock, playerKeyAction, playerModel, sceneAt, speedLabel, type PlayerStep } from './player.js';
import type { TimelineLine } from './timeline.js';

const frame = (at: number, n: number, width = 1280, height = 720): TimelineLine => ({ type: 'frame', at, file: `recording/${n}.jpg`, width, height });
// 0 s frame 1 · 2 s frame 2 · 4 s not capture-safe · 6 s frame 3 (half size) · 10 s end.
const LINES: TimelineLine[] = [
  frame(10_000, 1),
  frame(12_000, 2),
  { type: 'gap', at: 14_000, reason: 'not capture-safe: private' },
  frame(16_000, 3, 640, 360),
  { type: 'gap', at: 20_000, reason: 'session ended' },
];
const STEPS: PlayerStep[] = [
  { at: 11_000, caption: 'Type "Ada" into **Name**' },
  { at: 12_500, caption: 'Click **Submit**', box: { x: 100, y: 200, width: 80, height: 30 }, point: { x: 140, y: 215 }, viewport: { width: 1280, height: 720 } },
  { at: 17_000, caption: 'Click **Go private**', box: { x: 200, y: 100, width: 40, height: 20 }, viewport: { width: 1280, height: 720 } },
];

function setup() {
  let now = 0;
  const model = playerModel(LINES, STEPS)!;
  const clock = new PlayerClock(model, () => now);
  return { model, clock, advance: (ms: number) => (now += ms) };
}

describe('the player core', () => {
  it('shows at each time its frame, the current step, its caption and where it happened in the frame’s pixels', () => {
    const { model } = setup();
    expect(model.times).toEqual([1000, 2500, 7000]);
    const before = sceneAt(model, 500);
    expect([before.line.type === 'frame' && before.line.file, before.step, before.caption, before.place]).toEqual(['recording/1.jpg', -1, null, null]);
    const second = sceneAt(model, 2500);
    expect(second.line).toMatchObject({ file: 'recording/2.jpg' });
    expect([second.step, second.caption]).toEqual([1, 'Click **Submit**']);
    expect(second.place).toEqual({ box: { x: 100, y: 200, width: 80, height: 30 }, point: { x: 140, y: 215 }, viewport: { width: 1280, height: 720 } });
    const gap = sceneAt(model, 5000);
    expect(gap.line).toMatchObject({ type: 'gap', reason: 'not capture-safe: private' });
    expect([gap.step, gap.place]).toEqual([1, null]);
    // A frame half the viewport's size: the place is scaled to it.
    expect(sceneAt(model, 7000).place).toEqual({ box: { x: 100, y: 50, width: 20, height: 10 }, viewport: { width: 640, height: 360 } });
    const first = sceneAt(model, 1000);
    expect([first.caption, first.place]).toEqual(['Type "Ada" into **Name**', null]);
  });

  it('has nothing to play without a frame', () => {
    expect(playerModel([{ type: 'gap', at: 1, reason: 'session ended' }], STEPS)).toBeNull();
  });

  it('plays at its speed, pauses, and stops at the end; Play at the end starts again', () => {
    const { clock, advance } = setup();
    expect([clock.time(), clock.playing, clock.speed, clock.duration]).toEqual([0, false, 1, 10_000]);
    advance(1000);
    expect(clock.time()).toBe(0); // paused: time stands
    clock.play();
    advance(1500);
    expect(clock.time()).toBe(1500);
    clock.setSpeed(2);
    advance(1000);
    expect(clock.time()).toBe(3500);
    clock.setSpeed(0.5);
    advance(1000);
    expect(clock.time()).toBe(4000);
    clock.pause();
    advance(5000);
    expect([clock.time(), clock.playing]).toEqual([4000, false]);
    clock.setSpeed(4);
    clock.toggle();
    advance(60_000);
    expect([clock.time(), clock.playing]).toEqual([10_000, false]);
    expect(clock.scene().line).toMatchObject({ file: 'recording/3.jpg' }); // the end holds the last frame
    clock.play();
    expect(clock.time()).toBe(0);
    expect(clock.playing).toBe(true);
    expect(() => clock.setSpeed(3)).toThrow(/speed 3 is not one of 0.5, 1, 2, 4/);
  });

  it('seeks inside the recording, and goes from step to step', () => {
    const { clock, advance } = setup();
    clock.seek(-50);
    expect(clock.time()).toBe(0);
    clock.seek(99_999);
    expect(clock.time()).toBe(10_000);
    clock.goToStep(1);
    expect(clock.time()).toBe(2500);
    clock.nextStep();
    expect(clock.time()).toBe(7000);
    clock.nextStep(); // past the last step: the end
    expect(clock.time()).toBe(10_000);
    clock.previousStep(); // well after step 3's start: back to it
    expect(clock.time()).toBe(7000);
    clock.previousStep(); // right at it: the one before
    expect(clock.time()).toBe(2500);
    clock.play();
    advance(500);
    clock.previousStep(); // within a second of step 2: step 1
    expect(clock.time()).toBe(1000);
    clock.previousStep();
    expect(clock.time()).toBe(0);
    clock.previousStep(); // before the first step: the start
    expect(clock.time()).toBe(0);
    clock.goToStep(99);
    expect(clock.time()).toBe(7000);
  });

  it('maps keys to actions, leaving modified keys to the page', () => {
    expect(playerKeyAction({ key: ' ' })).toBe('toggle');
    expect(playerKeyAction({ key: 'k' })).toBe('toggle');
    expect(playerKeyAction({ key: 'ArrowLeft' })).toBe('previous-step');
    expect(playerKeyAction({ key: 'ArrowRight' })).toBe('next-step');
    expect(playerKeyAction({ key: 'ArrowLeft', shiftKey: true })).toBe('back');
    expect(playerKeyAction({ key: 'ArrowRight', shiftKey: true })).toBe('forward');
    expect(playerKeyAction({ key: 'Home' })).toBe('start');
    expect(playerKeyAction({ key: 'End' })).toBe('end');
    expect(playerKeyAction({ key: 'ArrowRight', ctrlKey: true })).toBeNull();
    expect(playerKeyAction({ key: 'a' })).toBeNull();
    const { clock } = setup();
    clock.seek(3000);
    clock.apply('forward');
    expect(clock.time()).toBe(8000);
    clock.apply('back');
    clock.apply('back');
    expect(clock.time()).toBe(0);
    clock.apply('end');
    expect(clock.time()).toBe(10_000);
    clock.apply('start');
    clock.apply('toggle');
    expect(clock.playing).toBe(true);
    expect(speedLabel(0.5)).toBe('0.5×');
  });
});
