// The bundle view's player: the recording played back with the current step's caption over
// the picture and its highlight drawn as the step pictures draw it, a timeline with a mark per
// step, gaps shown as gaps with their reason. The state and what to show at a time are the
// player core's (src/bundle/player.ts, shared with the HTML export); this component draws.
import { useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import {
  PLAYER_SPEEDS, PlayerClock, captionText, formatClock, highlightStroke, playerKeyAction, playerModel, speedLabel,
  type BundleDetail, type PlayerModel, type Scene,
} from '../../../src/ui-protocol/index.js';
import { CaptionText } from './Caption.js';
import { Highlight } from './StepPicture.js';

/** What the bundle view may ask of its player. */
export interface PlayerHandle {
  /** Shows step `index`'s moment, and moves the focus to the player. */
  showStep(index: number): void;
}

export interface PlayerProps {
  bundleId: string;
  detail: BundleDetail;
  pictureUrl(bundleId: string, picture: string): string;
  ref?: Ref<PlayerHandle>;
}

/** The player's model of a detail, or null when it has no recording to play. */
export function modelOf(detail: BundleDetail): PlayerModel | null {
  return detail.recording ? playerModel(detail.recording.lines, detail.steps) : null;
}

/** How many frames ahead are loaded while playing, so that frames change without a blank. */
const PRELOAD_AHEAD = 6;

/** A frame to draw: its file in the bundle and its URL. */
interface FrameRef {
  file: string;
  url: string;
}

/**
 * The frame to draw: `frame` once its image has loaded (decoded), else the one drawn before, so
 * a frame change never shows a blank picture. Frames after it are loaded ahead.
 */
function useLoadedFrame(frame: FrameRef | null, ahead: readonly string[]): FrameRef | null {
  const [shown, setShown] = useState<FrameRef | null>(null);
  const loaded = useRef(new Map<string, HTMLImageElement>());
  const image = (url: string, priority: 'high' | 'low'): HTMLImageElement => {
    let found = loaded.current.get(url);
    if (!found) {
      found = new Image();
      // The frame on screen goes before the step pictures the view loads at the same time.
      found.fetchPriority = priority;
      found.src = url;
      loaded.current.set(url, found);
    }
    return found;
  };
  const url = frame?.url ?? null;
  const file = frame?.file ?? null;
  useEffect(() => {
    if (!url || !file) return;
    let current = true;
    const show = () => current && setShown({ file, url });
    // A frame that fails to load still replaces the last one (its picture is then missing).
    image(url, 'high').decode().then(show, show);
    return () => {
      current = false;
    };
  }, [url, file]);
  // After the frame on screen (effects run in order), the ones after it.
  useEffect(() => {
    for (const next of ahead) image(next, 'low');
  }, [ahead]);
  return frame ? shown : null;
}

/** The clock and a re-render on every animation frame while it plays. */
function usePlayerClock(model: PlayerModel): { clock: PlayerClock; scene: Scene; update(): void } {
  const clock = useMemo(() => new PlayerClock(model, () => performance.now()), [model]);
  const [scene, setScene] = useState(() => clock.scene());
  const update = () => setScene(clock.scene());
  useEffect(() => {
    setScene(clock.scene());
  }, [clock]);
  const playing = clock.playing;
  useEffect(() => {
    if (!playing) return;
    let frame = requestAnimationFrame(function tick() {
      setScene(clock.scene());
      // The last tick, at the end, renders with the clock stopped: this effect then ends.
      if (clock.playing) frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [clock, playing]);
  return { clock, scene, update };
}

function Stage({ scene, shown, model, stageRef, keysId }: {
  scene: Scene;
  /** The frame whose image is drawn (the one before while the current one decodes). */
  shown: FrameRef | null;
  model: PlayerModel;
  stageRef: Ref<HTMLDivElement>;
  keysId: string;
}) {
  const { line, place } = scene;
  const first = model.timeline.lines.find((l) => l.type === 'frame');
  const size = line.type === 'frame' ? line : (first as { width: number; height: number });
  const stepNumber = scene.step + 1;
  const moment = `${formatClock(scene.time)} of ${formatClock(model.timeline.duration)}`;
  return (
    <div
      className="player-stage"
      ref={stageRef}
      tabIndex={0}
      role="group"
      aria-label="Recording"
      aria-describedby={keysId}
      data-frame={line.type === 'frame' ? line.file : ''}
      data-frame-shown={shown?.file ?? ''}
      data-step={stepNumber}
      style={{ aspectRatio: `${size.width} / ${size.height}` }}
    >
      {line.type === 'frame' ? (
        shown && (
          <svg className="player-picture" role="img" viewBox={`0 0 ${line.width} ${line.height}`} aria-label={`The recording at ${moment}${stepNumber > 0 ? `, step ${stepNumber}` : ''}`}>
            <image href={shown.url} x={0} y={0} width={line.width} height={line.height} preserveAspectRatio="none" />
            {place && <Highlight place={place} stroke={highlightStroke(line.width)} />}
          </svg>
        )
      ) : (
        <p className="player-gap">
          <strong>Not recorded</strong> from {formatClock(line.start)} to {formatClock(line.end)}: {line.reason}
        </p>
      )}
      {scene.caption !== null && (
        <p className="player-caption" aria-live="polite">
          <span className="player-caption-step">Step {stepNumber}</span> <CaptionText caption={scene.caption} />
        </p>
      )}
    </div>
  );
}

function Timeline({ model, scene, onSeek, onStep }: {
  model: PlayerModel;
  scene: Scene;
  onSeek(t: number): void;
  onStep(index: number): void;
}) {
  const { duration, lines } = model.timeline;
  const at = (t: number) => `${duration > 0 ? (t / duration) * 100 : 0}%`;
  const valueText = `${formatClock(scene.time)} of ${formatClock(duration)}${scene.step >= 0 ? `, step ${scene.step + 1} of ${model.steps.length}` : ''}`;
  return (
    <div className="player-timeline" role="group" aria-label="Timeline">
      <div className="player-track" aria-hidden="true">
        {lines.map((line, i) =>
          line.type === 'gap' && line.end > line.start ? (
            <span key={i} className="player-track-gap" style={{ left: at(line.start), width: at(line.end - line.start) }} title={`Not recorded: ${line.reason}`} />
          ) : null,
        )}
      </div>
      <input
        type="range"
        className="player-position"
        aria-label="Position"
        aria-valuetext={valueText}
        min={0}
        max={duration}
        step="any"
        value={scene.time}
        onChange={(event) => onSeek(Number(event.currentTarget.value))}
      />
      <div className="player-marks">
        {model.times.map((t, i) => (
          <button
            key={i}
            type="button"
            className={`player-mark${i === scene.step ? ' current' : ''}`}
            style={{ left: at(t) }}
            tabIndex={-1}
            aria-label={`Step ${i + 1}: ${captionText(model.steps[i]!.caption)}`}
            title={`Step ${i + 1}: ${captionText(model.steps[i]!.caption)}`}
            onClick={() => onStep(i)}
          />
        ))}
      </div>
    </div>
  );
}

/** The recording of one bundle, played. Keys (anywhere in the player but the Speed list): see docs/ui.md. */
export function Player({ bundleId, detail, pictureUrl, ref }: PlayerProps) {
  const model = useMemo(() => modelOf(detail), [detail]);
  if (!model) return null;
  return <PlayerOf key={bundleId} model={model} bundleId={bundleId} pictureUrl={pictureUrl} handleRef={ref} />;
}

function PlayerOf({ model, bundleId, pictureUrl, handleRef }: {
  model: PlayerModel;
  bundleId: string;
  pictureUrl: PlayerProps['pictureUrl'];
  handleRef: Ref<PlayerHandle> | undefined;
}) {
  const { clock, scene, update } = usePlayerClock(model);
  const stageRef = useRef<HTMLDivElement>(null);
  const keysId = useId();
  const act = (run: () => void) => {
    run();
    update();
  };
  useImperativeHandle(handleRef, () => ({
    showStep(index: number) {
      act(() => clock.goToStep(index));
      stageRef.current?.scrollIntoView({ block: 'nearest' });
      stageRef.current?.focus({ preventScroll: true });
    },
  }));
  const frame = useMemo(
    () => (scene.line.type === 'frame' ? { file: scene.line.file, url: pictureUrl(bundleId, scene.line.file) } : null),
    [scene.line, bundleId, pictureUrl],
  );
  const ahead = useMemo(() => {
    const index = model.timeline.lines.indexOf(scene.line);
    return model.timeline.lines
      .slice(index + 1)
      .filter((line) => line.type === 'frame')
      .slice(0, PRELOAD_AHEAD)
      .map((line) => pictureUrl(bundleId, (line as { file: string }).file));
  }, [model, scene.line, bundleId, pictureUrl]);
  const shown = useLoadedFrame(frame, ahead);
  const onKeyDown = (event: React.KeyboardEvent) => {
    const target = event.target as HTMLElement;
    // Space and Enter on a button press that button; the Speed list keeps its own keys.
    if (target.tagName === 'SELECT' || (target.tagName === 'BUTTON' && (event.key === ' ' || event.key === 'Enter'))) return;
    const action = playerKeyAction(event);
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    act(() => clock.apply(action));
  };
  const { playing } = clock;
  return (
    <section className="player" aria-label="Player" onKeyDown={onKeyDown}>
      <Stage scene={scene} shown={shown} model={model} stageRef={stageRef} keysId={keysId} />
      <div className="player-controls">
        <button type="button" className="button primary player-play" onClick={() => act(() => clock.toggle())}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" className="button subtle" onClick={() => act(() => clock.previousStep())}>
          Previous step
        </button>
        <button type="button" className="button subtle" onClick={() => act(() => clock.nextStep())}>
          Next step
        </button>
        <span className="player-clock" aria-hidden="true">
          {formatClock(scene.time)} / {formatClock(clock.duration)}
        </span>
        <label className="player-speed">
          Speed{' '}
          <select value={clock.speed} onChange={(event) => act(() => clock.setSpeed(Number(event.currentTarget.value)))}>
            {PLAYER_SPEEDS.map((speed) => (
              <option key={speed} value={speed}>
                {speedLabel(speed)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Timeline model={model} scene={scene} onSeek={(t) => act(() => clock.seek(t))} onStep={(i) => act(() => clock.goToStep(i))} />
      <p id={keysId} className="hint player-keys">
        Keys: Space plays and pauses; ← and → go to the previous and next step; Shift+← and Shift+→ go 5 seconds back and forward; Home and End go to the start and
        the end.
      </p>
    </section>
  );
}
