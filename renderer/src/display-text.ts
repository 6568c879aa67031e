// Text an agent chose (its name), made safe to show: it is data, never layout or direction.
// Bidi controls and invisible characters are shown as visible codes instead of being obeyed,
// runs of whitespace collapse to one space, and the text is cut to a length for display with
// the whole (neutralised) text kept for a "show all" view.

/** How long a claimed agent name may be where it is shown inline (characters). */
export const DISPLAY_MAX = 60;

export interface DisplayText {
  /** For inline display: neutralised, whitespace collapsed, cut to `max` with "…". */
  short: string;
  /** The whole text, neutralised and whitespace collapsed, for a "show all" view. */
  full: string;
  /** Whether `short` is cut. */
  cut: boolean;
  /** Characters in the original text. */
  length: number;
  /** Characters that were shown as codes (bidi controls, invisible and control characters). */
  neutralised: number;
}

// Format characters (bidi controls, zero-width spaces and joiners, the BOM, tag characters, the
// soft hyphen), control characters, and the blank-looking fillers that are letters to Unicode.
const HIDDEN = /[\p{Cf}\p{Cc}\u115F\u1160\u3164\uFFA0\u2800]/gu;
// Every kind of space, tab, line break and the no-break spaces.
const WHITESPACE = /[\p{White_Space}]+/gu;

function code(char: string): string {
  return `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`;
}

function neutralise(text: string): { text: string; count: number } {
  let count = 0;
  // Tabs and line breaks are whitespace (collapsed below), not codes.
  const shown = text.replace(HIDDEN, (char) => {
    if (/\p{White_Space}/u.test(char)) return char;
    count++;
    return code(char);
  });
  return { text: shown.replace(WHITESPACE, ' ').trim(), count };
}

export function displayText(raw: string, max = DISPLAY_MAX): DisplayText {
  const { text, count } = neutralise(raw);
  const chars = Array.from(text);
  const cut = chars.length > max;
  return {
    short: cut ? `${chars.slice(0, max).join('').trimEnd()}…` : text,
    full: text,
    cut,
    length: Array.from(raw).length,
    neutralised: count,
  };
}

/**
 * A path or URL for inline display: neutralised, and when too long cut in the middle, since
 * both ends tell what it is (`/home/me/…/bin/agent`).
 */
export function middleText(raw: string, max = 80): string {
  const chars = Array.from(displayText(raw, Infinity).full);
  if (chars.length <= max) return chars.join('');
  const head = Math.floor((max - 1) / 3);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/** Just the inline form (kill controls, button names, lists). */
export function shortText(raw: string, max = DISPLAY_MAX): string {
  return displayText(raw, max).short;
}
