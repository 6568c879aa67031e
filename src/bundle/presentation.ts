// How a step is shown to people: its caption, written from its receipt, and the part of its
// picture to zoom to. Shared by the bundle view (renderer), the HTML export and the video
// export, so all three say and draw the same. Browser-safe: it imports nothing of Node (only
// types from format.ts).
import type { PixelBox, StepPlace } from './format.js';

export type { PixelBox, StepPlace };

/** The colour of the highlight around the acted element and of the click marker. */
export const HIGHLIGHT_COLOUR = '#ff6a00';

/** Caption text is plain text where `**…**` marks the element's name (shown bold). */
export interface CaptionPart {
  text: string;
  strong: boolean;
}

/** The longest caption a person may write (characters). */
export const MAX_CAPTION_LENGTH = 300;
/** Typed text longer than this is shortened in the caption (the receipt keeps all of it). */
const TYPED_IN_CAPTION = 60;

const KEY_WORDS: Record<string, string> = {
  ctrl: 'Ctrl', control: 'Ctrl', shift: 'Shift', alt: 'Alt', option: 'Option', meta: 'Meta', cmd: 'Cmd', command: 'Cmd',
  enter: 'Enter', return: 'Enter', tab: 'Tab', escape: 'Escape', esc: 'Escape', backspace: 'Backspace', delete: 'Delete', del: 'Delete',
  space: 'Space', arrowup: 'Up', arrowdown: 'Down', arrowleft: 'Left', arrowright: 'Right', up: 'Up', down: 'Down', left: 'Left',
  right: 'Right', home: 'Home', end: 'End', pageup: 'Page Up', pagedown: 'Page Down',
};

/** A key as the receipt has it (`enter`, `ctrl+shift+a`) in the words people read (`Enter`, `Ctrl+Shift+A`). */
export function keyWords(key: string): string {
  return key
    .split('+')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => KEY_WORDS[part.toLowerCase()] ?? (part.length === 1 ? part.toUpperCase() : part[0]!.toUpperCase() + part.slice(1).toLowerCase()))
    .join('+');
}

/** `**` and line breaks cannot appear inside a name: they would break the markup. */
function nameText(label: string, role: string): string {
  const name = label.replace(/\*\*/g, '*').replace(/\s+/g, ' ').trim();
  return name ? `**${name}**` : `the ${role || 'element'}`;
}

function shortened(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > TYPED_IN_CAPTION ? `${one.slice(0, TYPED_IN_CAPTION - 1)}…` : one;
}

/** The caption a step gets from its receipt: `Click **Submit**`, `Type "Ada" into **Name**`, `Press Enter in **Search**`. */
export function autoCaption(step: { op: string; role: string; label: string; text?: string; key?: string }): string {
  const name = nameText(step.label, step.role);
  switch (step.op) {
    case 'click':
      return `Click ${name}`;
    case 'type':
      return `Type "${shortened(step.text ?? '')}" into ${name}`;
    case 'press':
      return `Press ${step.key ? keyWords(step.key) : 'a key'} in ${name}`;
    default:
      return `${step.op[0]?.toUpperCase() ?? ''}${step.op.slice(1)} ${name}`;
  }
}

/** A caption split into plain and bold runs (an unpaired `**` stays as text). */
export function captionParts(caption: string): CaptionPart[] {
  const parts: CaptionPart[] = [];
  const pieces = caption.split('**');
  // An even number of pieces means one `**` has no partner: it is kept as text.
  const paired = pieces.length % 2 === 1 ? pieces.length : pieces.length - 1;
  for (let i = 0; i < pieces.length; i += 1) {
    const strong = i % 2 === 1 && i < paired;
    const text = i >= paired ? `**${pieces[i]}` : pieces[i]!;
    if (text) parts.push({ text, strong });
  }
  return parts;
}

/** The caption without its markup, for alt text, titles and terminals. */
export function captionText(caption: string): string {
  return captionParts(caption)
    .map((part) => part.text)
    .join('');
}

/** Why a caption a person wrote cannot be kept, or null when it can. */
export function captionProblem(caption: string): string | null {
  if (typeof caption !== 'string') return 'a caption must be text';
  if (caption.trim().length === 0) return 'a caption cannot be empty (clear the edit to go back to the original caption)';
  if (caption.length > MAX_CAPTION_LENGTH) return `a caption can be at most ${MAX_CAPTION_LENGTH} characters (this one has ${caption.length})`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(caption)) return 'a caption is one line of text: no line breaks or control characters';
  return null;
}

/** `place` in the pixels of a picture `width` × `height` (a frame may be smaller than the viewport). */
export function scalePlace(place: StepPlace, width: number, height: number): StepPlace {
  const sx = width / place.viewport.width;
  const sy = height / place.viewport.height;
  const scaled: StepPlace = {
    box: { x: place.box.x * sx, y: place.box.y * sy, width: place.box.width * sx, height: place.box.height * sy },
    viewport: { width, height },
  };
  if (place.point) scaled.point = { x: place.point.x * sx, y: place.point.y * sy };
  return scaled;
}

/**
 * The part of a `width` × `height` picture to zoom to for a step: the element's box with room
 * around it, at least half the picture's width, the picture's own aspect ratio, inside the picture.
 */
export function focusArea(box: PixelBox, width: number, height: number): PixelBox {
  const aspect = width / height;
  let w = Math.max(box.width * 2, box.width + 160, width / 2);
  let h = Math.max(box.height * 3, box.height + 160, w / aspect);
  w = Math.max(w, h * aspect);
  w = Math.min(w, width);
  h = Math.min(w / aspect, height);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const x = Math.min(Math.max(cx - w / 2, 0), width - w);
  const y = Math.min(Math.max(cy - h / 2, 0), height - h);
  return { x: Math.round(x), y: Math.round(y), width: Math.round(w), height: Math.round(h) };
}

/** The stroke of the highlight for a picture of this width: visible at any scale it is shown at. */
export function highlightStroke(width: number): number {
  return Math.max(3, Math.round(width / 160));
}
