// The HTML export's player: the same core as the bundle view's (../player.ts), drawn into the
// markup export-html.ts writes. scripts/gen-player-script.mjs bundles this file into the one
// inline script of the export (allowed by its hash in the page's CSP). The page reads without
// it: the player's section stays hidden and the steps below stand on their own.
import { PLAYER_SPEEDS, PlayerClock, playerKeyAction, playerModel, speedLabel, type PlayerStep } from '../player.js';
import { captionParts, captionText, highlightStroke, HIGHLIGHT_COLOUR, type StepPlace } from '../presentation.js';
import { formatClock, type ShownLine, type TimelineLine } from '../timeline.js';
import { PLAYER_DATA_ID, PLAYER_ID, type EmbeddedPlayerData } from '../export-player-data.js';

const SVG = 'http://www.w3.org/2000/svg';

function part<T extends Element>(root: Element, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`the player's markup has no ${selector}`);
  return found;
}

function svgElement(name: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

type FrameLine = Extract<ShownLine, { type: 'frame' }>;
type GapLine = Extract<ShownLine, { type: 'gap' }>;

/** The frame, with the step's highlight and click marker in the frame's own pixels. */
function drawFrame(at: { picture: SVGSVGElement; image: SVGImageElement; marks: SVGGElement }, line: FrameLine, place: StepPlace | null, uri: string): void {
  at.picture.setAttribute('viewBox', `0 0 ${line.width} ${line.height}`);
  at.image.setAttribute('width', String(line.width));
  at.image.setAttribute('height', String(line.height));
  at.image.setAttribute('href', uri);
  if (!place) return;
  const stroke = highlightStroke(line.width);
  const { box, point } = place;
  at.marks.append(svgElement('rect', { class: 'highlight', x: box.x - stroke, y: box.y - stroke, width: box.width + 2 * stroke, height: box.height + 2 * stroke, rx: stroke, fill: 'none', stroke: HIGHLIGHT_COLOUR, 'stroke-width': stroke }));
  if (point) at.marks.append(svgElement('circle', { class: 'click-point', cx: point.x, cy: point.y, r: stroke * 3, fill: HIGHLIGHT_COLOUR, 'fill-opacity': 0.55, stroke: '#fff', 'stroke-width': stroke / 2 }));
}

function drawGap(gap: HTMLElement, line: GapLine): void {
  gap.replaceChildren();
  const strong = document.createElement('strong');
  strong.textContent = 'Not recorded';
  gap.append(strong, ` from ${formatClock(line.start)} to ${formatClock(line.end)}: ${line.reason}`);
}

/** The current step's caption over the picture (its name bold), or nothing before the first step. */
function drawCaption(caption: HTMLElement, text: string | null, step: number): void {
  caption.toggleAttribute('hidden', text === null);
  if (text === null) return;
  const number = document.createElement('span');
  number.className = 'player-caption-step';
  number.textContent = `Step ${step + 1}`;
  const parts = captionParts(text).map((p) => {
    const element = document.createElement(p.strong ? 'strong' : 'span');
    element.textContent = p.text;
    return element;
  });
  caption.replaceChildren(number, ' ', ...parts);
}

function start(): void {
  const root = document.getElementById(PLAYER_ID);
  const dataElement = document.getElementById(PLAYER_DATA_ID);
  if (!root || !dataElement) return;
  const data = JSON.parse(dataElement.textContent ?? 'null') as EmbeddedPlayerData;
  const model = playerModel(data.lines as TimelineLine[], data.steps as PlayerStep[]);
  if (!model) return;
  const clock = new PlayerClock(model, () => performance.now());
  const { duration } = model.timeline;

  const stage = part<HTMLElement>(root, '.player-stage');
  const picture = part<SVGSVGElement>(root, '.player-picture');
  const image = part<SVGImageElement>(root, '.player-picture image');
  const marks = part<SVGGElement>(root, '.player-picture .marks');
  const gap = part<HTMLElement>(root, '.player-gap');
  const caption = part<HTMLElement>(root, '.player-caption');
  const play = part<HTMLButtonElement>(root, '.player-play');
  const clockText = part<HTMLElement>(root, '.player-clock');
  const speed = part<HTMLSelectElement>(root, '.player-speed select');
  const position = part<HTMLInputElement>(root, '.player-position');
  const track = part<HTMLElement>(root, '.player-track');
  const markList = part<HTMLElement>(root, '.player-marks');

  const at = (t: number) => `${duration > 0 ? (t / duration) * 100 : 0}%`;
  for (const line of model.timeline.lines) {
    if (line.type !== 'gap' || line.end <= line.start) continue;
    const span = document.createElement('span');
    span.className = 'player-track-gap';
    span.style.left = at(line.start);
    span.style.width = at(line.end - line.start);
    span.title = `Not recorded: ${line.reason}`;
    track.append(span);
  }
  const markButtons = model.times.map((t, i) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'player-mark';
    button.style.left = at(t);
    button.tabIndex = -1;
    button.setAttribute('aria-label', `Step ${i + 1}: ${captionText(model.steps[i]!.caption)}`);
    button.title = button.getAttribute('aria-label')!;
    button.addEventListener('click', () => act(() => clock.goToStep(i)));
    markList.append(button);
    return button;
  });
  position.max = String(duration);
  for (const value of PLAYER_SPEEDS) speed.append(new Option(speedLabel(value), String(value), value === 1, value === 1));

  let drawn = { line: -1, step: -2, time: -1 };
  function draw(): void {
    const scene = clock.scene();
    const lineIndex = model!.timeline.lines.indexOf(scene.line);
    if (lineIndex !== drawn.line || scene.step !== drawn.step) {
      const { line, place } = scene;
      stage.dataset.step = String(scene.step + 1);
      stage.dataset.frame = line.type === 'frame' ? line.file : '';
      picture.toggleAttribute('hidden', line.type !== 'frame');
      gap.toggleAttribute('hidden', line.type === 'frame');
      marks.replaceChildren();
      if (line.type === 'frame') drawFrame({ picture, image, marks }, line, place, data.frames[Number(line.file)] ?? '');
      else drawGap(gap, line);
      drawCaption(caption, scene.caption, scene.step);
      markButtons.forEach((button, i) => button.classList.toggle('current', i === scene.step));
      drawn = { ...drawn, line: lineIndex, step: scene.step };
    }
    const moment = `${formatClock(scene.time)} of ${formatClock(duration)}`;
    picture.setAttribute('aria-label', `The recording at ${moment}${scene.step >= 0 ? `, step ${scene.step + 1}` : ''}`);
    if (Math.abs(scene.time - drawn.time) >= 1 || scene.time === 0 || scene.time === duration) {
      position.value = String(scene.time);
      position.setAttribute('aria-valuetext', `${moment}${scene.step >= 0 ? `, step ${scene.step + 1} of ${model!.steps.length}` : ''}`);
      clockText.textContent = `${formatClock(scene.time)} / ${formatClock(duration)}`;
      drawn.time = scene.time;
    }
    play.textContent = clock.playing ? 'Pause' : 'Play';
  }

  let frame = 0;
  function tick(): void {
    draw();
    frame = clock.playing ? requestAnimationFrame(tick) : 0;
  }
  function act(run: () => void): void {
    run();
    draw();
    if (clock.playing && frame === 0) frame = requestAnimationFrame(tick);
  }

  play.addEventListener('click', () => act(() => clock.toggle()));
  part<HTMLButtonElement>(root, '.player-previous').addEventListener('click', () => act(() => clock.previousStep()));
  part<HTMLButtonElement>(root, '.player-next').addEventListener('click', () => act(() => clock.nextStep()));
  speed.addEventListener('change', () => act(() => clock.setSpeed(Number(speed.value))));
  position.addEventListener('input', () => act(() => clock.seek(Number(position.value))));
  root.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    // Space and Enter on a button press that button; the Speed list keeps its own keys.
    if (target.tagName === 'SELECT' || (target.tagName === 'BUTTON' && (event.key === ' ' || event.key === 'Enter'))) return;
    const action = playerKeyAction(event);
    if (!action) return;
    event.preventDefault();
    act(() => clock.apply(action));
  });
  // The steps below link to the player: "Show in the player".
  for (const link of document.querySelectorAll<HTMLElement>('[data-player-step]')) {
    link.hidden = false;
    link.addEventListener('click', (event) => {
      event.preventDefault();
      act(() => clock.goToStep(Number(link.dataset.playerStep)));
      stage.scrollIntoView({ block: 'nearest' });
      stage.focus({ preventScroll: true });
    });
  }
  root.hidden = false;
  draw();
}

// The script sits in the player's section, above the steps: start once the whole page is parsed.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
