// Text an agent chose (its name, and anything else that came over the socket) printed in a
// person's terminal is shown, never obeyed: control characters would let it clear the screen
// and print a fake verdict, set the window title, or write the clipboard (OSC 52); bidi controls
// would reorder what is shown. Each such character is printed as a visible escape instead.

/**
 * C0 controls and DEL, C1 controls (0x9b is CSI on its own), bidi embeddings, overrides,
 * isolates and marks, and invisible format characters (zero-width spaces and joiners, word
 * joiner, byte order mark, line and paragraph separators).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

function escapeOne(char: string): string {
  const code = char.codePointAt(0)!;
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  if (char === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` safe to print in a terminal: backslashes doubled (so an escape is never ambiguous), unsafe characters escaped. */
export function terminalSafe(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(UNSAFE, escapeOne);
}

/** Like JSON.stringify, with every character terminalSafe would escape written as \uXXXX: the same JSON value, safe to print. */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
