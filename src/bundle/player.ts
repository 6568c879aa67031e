// The player's core, framework-free: its state (the time, playing or not, the speed), what it
// shows at a time (the frame or the gap, the current step, its caption and where it happened,
// in the frame's pixels) and what each key does. The bundle view's React player and the HTML
// export's inlined script both drive this one core; each only draws. Browser-safe.
import { scalePlace, type StepPlace } from './presentation.js';
import { buildTimeline, clampTime, lineAt, stepIndexAt, stepTimes, type ShownLine, type Timeline, type TimelineLine } from './timeline.js';

/** The speeds a person can pick. */
export const PLAYER_SPEEDS = [0.5, 1, 2, 4] as const;
/** How far Shift+← / Shift+→ seek (ms). */
export const SEEK_STEP_MS = 5000;
/** ← within this long after a step's start goes to the step before it; later, back to the step's own start. */
const RESTART_WINDOW_MS = 1000;

/** A step as the player needs it. */
export interface PlayerStep {
  at: number;
  caption: string;
  box?: StepPlace['box'];
  point?: StepPlace['point'];
  viewport?: StepPlace['viewport'];
}

export interface PlayerModel {
  timeline: Timeline;
  steps: readonly PlayerStep[];
  /** Where each step falls on the clock (ms from the start). */
  times: number[];
}

/** The model of a recording and its steps, or null when there is nothing to play (no frame). */
export function playerModel(lines: readonly TimelineLine[], steps: readonly PlayerStep[]): PlayerModel | null {
  const timeline = buildTimeline(lines);
  return timeline ? { timeline, steps, times: stepTimes(timeline, steps) } : null;
}

/** What the player shows at one moment. */
export interface Scene {
  time: number;
  /** The frame on screen, or the gap (with its reason). */
  line: ShownLine;
  /** The current step (index), or -1 before the first. */
  step: number;
  caption: string | null;
  /** Where the current step happened, in the pixels of the frame shown; null in a gap or when unknown. */
  place: StepPlace | null;
}

export function sceneAt(model: PlayerModel, t: number): Scene {
  const time = clampTime(model.timeline, t);
  const line = lineAt(model.timeline, time);
  const step = stepIndexAt(model.times, time);
  const current = step >= 0 ? model.steps[step] : undefined;
  let place: StepPlace | null = null;
  if (current?.box && current.viewport && line.type === 'frame' && current.viewport.width > 0 && current.viewport.height > 0) {
    const recorded: StepPlace = { box: current.box, viewport: current.viewport };
    if (current.point) recorded.point = current.point;
    place = scalePlace(recorded, line.width, line.height);
  }
  return { time, line, step, caption: current ? current.caption : null, place };
}

/**
 * The player's state over a clock (`now`, ms; performance.now in a page). Time runs at the
 * speed while playing and stops at the end; Play at the end starts again from the beginning.
 */
export class PlayerClock {
  private anchorTime = 0;
  private anchorNow: number;
  private playingNow = false;
  private speedNow = 1;

  constructor(
    private readonly model: PlayerModel,
    private readonly now: () => number,
  ) {
    this.anchorNow = now();
  }

  get duration(): number {
    return this.model.timeline.duration;
  }

  get speed(): number {
    return this.speedNow;
  }

  /** Playing, and not yet at the end. */
  get playing(): boolean {
    this.time();
    return this.playingNow;
  }

  /** The current time (ms from the start); reaching the end stops the play there. */
  time(): number {
    if (!this.playingNow) return this.anchorTime;
    const t = this.anchorTime + (this.now() - this.anchorNow) * this.speedNow;
    if (t >= this.duration) {
      this.playingNow = false;
      this.anchorTime = this.duration;
      return this.duration;
    }
    return t;
  }

  scene(): Scene {
    return sceneAt(this.model, this.time());
  }

  play(): void {
    const t = this.time();
    this.anchor(t >= this.duration ? 0 : t);
    this.playingNow = this.duration > 0;
  }

  pause(): void {
    this.anchor(this.time());
    this.playingNow = false;
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  seek(t: number): void {
    this.anchor(clampTime(this.model.timeline, t));
  }

  setSpeed(speed: number): void {
    if (!PLAYER_SPEEDS.includes(speed as (typeof PLAYER_SPEEDS)[number])) {
      throw new RangeError(`speed ${speed} is not one of ${PLAYER_SPEEDS.join(', ')}`);
    }
    this.anchor(this.time());
    this.speedNow = speed;
  }

  /** To step `index`'s moment (held to the first and last step). */
  goToStep(index: number): void {
    const { times } = this.model;
    if (times.length === 0) return;
    this.seek(times[Math.min(Math.max(index, 0), times.length - 1)]!);
  }

  nextStep(): void {
    const current = stepIndexAt(this.model.times, this.time());
    if (current + 1 < this.model.times.length) this.goToStep(current + 1);
    else this.seek(this.duration);
  }

  previousStep(): void {
    const t = this.time();
    const current = stepIndexAt(this.model.times, t);
    if (current < 0) return this.seek(0);
    if (t - this.model.times[current]! > RESTART_WINDOW_MS) this.goToStep(current);
    else if (current === 0) this.seek(0);
    else this.goToStep(current - 1);
  }

  /** Does what a key means (see playerKeyAction). */
  apply(action: PlayerAction): void {
    switch (action) {
      case 'toggle':
        return this.toggle();
      case 'previous-step':
        return this.previousStep();
      case 'next-step':
        return this.nextStep();
      case 'back':
        return this.seek(this.time() - SEEK_STEP_MS);
      case 'forward':
        return this.seek(this.time() + SEEK_STEP_MS);
      case 'start':
        return this.seek(0);
      case 'end':
        return this.seek(this.duration);
    }
  }

  private anchor(t: number): void {
    this.anchorTime = t;
    this.anchorNow = this.now();
  }
}

export type PlayerAction = 'toggle' | 'previous-step' | 'next-step' | 'back' | 'forward' | 'start' | 'end';

/**
 * The player's keys: Space or K plays and pauses; ← and → go to the previous and next step;
 * Shift+← and Shift+→ seek 5 seconds; Home and End go to the start and the end. Keys with
 * Ctrl, Alt or Meta are left to the page.
 */
export function playerKeyAction(event: { key: string; shiftKey?: boolean; ctrlKey?: boolean; altKey?: boolean; metaKey?: boolean }): PlayerAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  switch (event.key) {
    case ' ':
    case 'k':
    case 'K':
      return 'toggle';
    case 'ArrowLeft':
      return event.shiftKey ? 'back' : 'previous-step';
    case 'ArrowRight':
      return event.shiftKey ? 'forward' : 'next-step';
    case 'Home':
      return 'start';
    case 'End':
      return 'end';
    default:
      return null;
  }
}

/** The speed as people read it: `0.5×`, `1×`. */
export function speedLabel(speed: number): string {
  return `${speed}×`;
}
