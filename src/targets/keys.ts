// The key grammar of `demo.act {op:"press", key}` and its translation into CDP key events.
//
// Grammar (case-insensitive; spaces around tokens are ignored):
//   key       = [modifier "+"]... name
//   modifier  = "ctrl" | "control" | "shift" | "alt" | "option" | "meta" | "cmd" | "command"
//   name      = "enter" | "return" | "tab" | "escape" | "esc" | "backspace" | "delete" | "del"
//             | "space" | "arrowup" | "arrowdown" | "arrowleft" | "arrowright"
//             | "up" | "down" | "left" | "right" | "home" | "end" | "pageup" | "pagedown"
//             | "a".."z" | "0".."9" | "f1".."f12"
// `cmd` (and `command`) is the platform's command key: Meta on macOS, Control elsewhere, so
// `cmd+s` saves everywhere. `meta` is always Meta. A modifier may appear once.
// Printable keys (letters, digits, space, enter) send text unless ctrl, alt or meta is held;
// shift upper-cases letters (digits keep their text: the grammar does not model layouts).
import { ToolError } from '../contract/errors.js';

export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

/** CDP `Input.dispatchKeyEvent` modifier bits. */
const MODIFIER_BIT: Record<Modifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

/** One physical key as CDP describes it. */
export interface KeyDefinition {
  /** DOM `KeyboardEvent.key`. */
  key: string;
  /** DOM `KeyboardEvent.code`. */
  code: string;
  /** Windows virtual key code (CDP `windowsVirtualKeyCode`). */
  keyCode: number;
  /** Text the key inserts when no ctrl/alt/meta is held. */
  text?: string;
}

export interface ParsedKey {
  /** Canonical form, for receipts: modifiers in Control, Alt, Shift, Meta order, then the key (`Control+Shift+KeyA`). */
  canonical: string;
  /** Modifiers held, in the order they are pressed. */
  modifiers: Modifier[];
  /** CDP modifier bit mask of `modifiers`. */
  mask: number;
  main: KeyDefinition;
}

const MODIFIER_ORDER: readonly Modifier[] = ['Control', 'Alt', 'Shift', 'Meta'];

const MODIFIER_KEYS: Record<Modifier, KeyDefinition> = {
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18 },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91 },
};

const NAMED_KEYS: Record<string, KeyDefinition> = {
  enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  arrowup: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  arrowdown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  arrowleft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  arrowright: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  home: { key: 'Home', code: 'Home', keyCode: 36 },
  end: { key: 'End', code: 'End', keyCode: 35 },
  pageup: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  pagedown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
};

const KEY_ALIASES: Record<string, string> = {
  return: 'enter',
  esc: 'escape',
  del: 'delete',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
};

/** Human summary of the grammar, used in error messages. */
export const KEY_GRAMMAR_SUMMARY =
  'a key is [modifier+]...name; modifiers: ctrl, shift, alt, cmd (Meta on macOS, Control elsewhere), meta; ' +
  'names: enter, tab, escape, backspace, delete, space, arrowup, arrowdown, arrowleft, arrowright, home, end, ' +
  'pageup, pagedown, a-z, 0-9, f1-f12';

function modifierOf(token: string, platform: NodeJS.Platform): Modifier | undefined {
  switch (token) {
    case 'ctrl':
    case 'control':
      return 'Control';
    case 'shift':
      return 'Shift';
    case 'alt':
    case 'option':
      return 'Alt';
    case 'meta':
      return 'Meta';
    case 'cmd':
    case 'command':
      return platform === 'darwin' ? 'Meta' : 'Control';
    default:
      return undefined;
  }
}

function keyOf(token: string): KeyDefinition | undefined {
  const name = KEY_ALIASES[token] ?? token;
  const named = NAMED_KEYS[name];
  if (named) return named;
  if (/^[a-z]$/.test(name)) {
    return { key: name, code: `Key${name.toUpperCase()}`, keyCode: name.toUpperCase().charCodeAt(0), text: name };
  }
  if (/^[0-9]$/.test(name)) return { key: name, code: `Digit${name}`, keyCode: name.charCodeAt(0), text: name };
  const fn = /^f([1-9]|1[0-2])$/.exec(name);
  if (fn) {
    const n = Number(fn[1]);
    return { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };
  }
  return undefined;
}

function invalid(message: string): ToolError {
  return new ToolError('invalid_arguments', message);
}

/**
 * Parses a key spec such as `enter`, `cmd+s` or `ctrl+shift+arrowleft`. Throws
 * `ToolError('invalid_arguments')` naming the offending part when it does not fit the grammar.
 */
export function parseKey(spec: string, platform: NodeJS.Platform = process.platform): ParsedKey {
  if (typeof spec !== 'string' || spec.trim() === '') throw invalid(`key is empty; ${KEY_GRAMMAR_SUMMARY}`);
  const tokens = spec.split('+').map((token) => token.trim().toLowerCase());
  const name = tokens.pop() as string;
  const held = new Set<Modifier>();
  for (const token of tokens) {
    if (token === '') throw invalid(`key ${JSON.stringify(spec)} has an empty part; ${KEY_GRAMMAR_SUMMARY}`);
    const modifier = modifierOf(token, platform);
    if (!modifier) throw invalid(`unknown modifier ${JSON.stringify(token)} in key ${JSON.stringify(spec)}; ${KEY_GRAMMAR_SUMMARY}`);
    if (held.has(modifier)) throw invalid(`modifier ${JSON.stringify(token)} appears twice in key ${JSON.stringify(spec)}`);
    held.add(modifier);
  }
  if (name === '') throw invalid(`key ${JSON.stringify(spec)} has no key name after its modifiers; ${KEY_GRAMMAR_SUMMARY}`);
  const base = keyOf(name);
  if (!base) {
    const what = modifierOf(name, platform) ? 'a modifier alone is not a key' : 'unknown key';
    throw invalid(`${what} ${JSON.stringify(name)} in key ${JSON.stringify(spec)}; ${KEY_GRAMMAR_SUMMARY}`);
  }
  const modifiers = MODIFIER_ORDER.filter((m) => held.has(m));
  const mask = modifiers.reduce((bits, m) => bits | MODIFIER_BIT[m], 0);
  const main: KeyDefinition = { ...base };
  if (held.has('Shift') && /^[a-z]$/.test(main.key)) {
    main.key = main.key.toUpperCase();
    main.text = main.key;
  }
  // Ctrl, Alt or Meta turn a printable key into a shortcut: it inserts nothing.
  if (held.has('Control') || held.has('Alt') || held.has('Meta')) delete main.text;
  return { canonical: [...modifiers, main.code].join('+'), modifiers, mask, main };
}

/**
 * macOS Chromium performs editing keys through Cocoa commands, which CDP must be told about
 * (the same table Playwright uses, cut to the keys of this grammar). Elsewhere the key event
 * alone does it.
 */
const MAC_EDITING_COMMANDS: Record<string, string | string[]> = {
  Backspace: 'deleteBackward',
  Escape: 'cancelOperation',
  ArrowUp: 'moveUp',
  ArrowDown: 'moveDown',
  ArrowLeft: 'moveLeft',
  ArrowRight: 'moveRight',
  F5: 'complete',
  Delete: 'deleteForward',
  Home: 'scrollToBeginningOfDocument',
  End: 'scrollToEndOfDocument',
  PageUp: 'scrollPageUp',
  PageDown: 'scrollPageDown',
  'Shift+Backspace': 'deleteBackward',
  'Shift+Escape': 'cancelOperation',
  'Shift+ArrowUp': 'moveUpAndModifySelection',
  'Shift+ArrowDown': 'moveDownAndModifySelection',
  'Shift+ArrowLeft': 'moveLeftAndModifySelection',
  'Shift+ArrowRight': 'moveRightAndModifySelection',
  'Shift+Delete': 'deleteForward',
  'Shift+Home': 'moveToBeginningOfDocumentAndModifySelection',
  'Shift+End': 'moveToEndOfDocumentAndModifySelection',
  'Shift+PageUp': 'pageUpAndModifySelection',
  'Shift+PageDown': 'pageDownAndModifySelection',
  'Control+Tab': 'selectNextKeyView',
  'Control+KeyA': 'moveToBeginningOfParagraph',
  'Control+KeyB': 'moveBackward',
  'Control+KeyD': 'deleteForward',
  'Control+KeyE': 'moveToEndOfParagraph',
  'Control+KeyF': 'moveForward',
  'Control+KeyH': 'deleteBackward',
  'Control+KeyK': 'deleteToEndOfParagraph',
  'Control+KeyN': 'moveDown',
  'Control+KeyP': 'moveUp',
  'Control+Backspace': 'deleteBackwardByDecomposingPreviousCharacter',
  'Control+ArrowLeft': 'moveToLeftEndOfLine',
  'Control+ArrowRight': 'moveToRightEndOfLine',
  'Alt+Backspace': 'deleteWordBackward',
  'Alt+ArrowLeft': 'moveWordLeft',
  'Alt+ArrowRight': 'moveWordRight',
  'Alt+Delete': 'deleteWordForward',
  'Shift+Alt+ArrowLeft': 'moveWordLeftAndModifySelection',
  'Shift+Alt+ArrowRight': 'moveWordRightAndModifySelection',
  'Meta+Backspace': 'deleteToBeginningOfLine',
  'Meta+ArrowUp': 'moveToBeginningOfDocument',
  'Meta+ArrowDown': 'moveToEndOfDocument',
  'Meta+ArrowLeft': 'moveToLeftEndOfLine',
  'Meta+ArrowRight': 'moveToRightEndOfLine',
  'Shift+Meta+ArrowLeft': 'moveToLeftEndOfLineAndModifySelection',
  'Shift+Meta+ArrowRight': 'moveToRightEndOfLineAndModifySelection',
  'Meta+KeyA': 'selectAll',
  'Meta+KeyC': 'copy',
  'Meta+KeyX': 'cut',
  'Meta+KeyV': 'paste',
  'Meta+KeyZ': 'undo',
  'Shift+Meta+KeyZ': 'redo',
};

function macCommands(parsed: ParsedKey): string[] {
  // Playwright's order for this table: Shift, Control, Alt, Meta.
  const order: Modifier[] = ['Shift', 'Control', 'Alt', 'Meta'];
  const shortcut = [...order.filter((m) => parsed.modifiers.includes(m)), parsed.main.code].join('+');
  const found = MAC_EDITING_COMMANDS[shortcut];
  return found === undefined ? [] : Array.isArray(found) ? found : [found];
}

/**
 * The `Input.dispatchKeyEvent` parameter objects that press and release `parsed`: each
 * modifier down, the key down (`keyDown` with text for printable keys, else `rawKeyDown`)
 * and up, then the modifiers up in reverse order.
 */
export function keyEventSequence(parsed: ParsedKey, platform: NodeJS.Platform = process.platform): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  let mask = 0;
  for (const modifier of parsed.modifiers) {
    mask |= MODIFIER_BIT[modifier];
    const def = MODIFIER_KEYS[modifier];
    events.push({ type: 'rawKeyDown', modifiers: mask, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, location: 1 });
  }
  const { main } = parsed;
  const down: Record<string, unknown> = {
    type: main.text ? 'keyDown' : 'rawKeyDown',
    modifiers: mask,
    key: main.key,
    code: main.code,
    windowsVirtualKeyCode: main.keyCode,
  };
  if (main.text) {
    down.text = main.text;
    down.unmodifiedText = main.text;
  }
  if (platform === 'darwin') {
    const commands = macCommands(parsed);
    if (commands.length > 0) down.commands = commands;
  }
  events.push(down);
  events.push({ type: 'keyUp', modifiers: mask, key: main.key, code: main.code, windowsVirtualKeyCode: main.keyCode });
  for (const modifier of [...parsed.modifiers].reverse()) {
    mask &= ~MODIFIER_BIT[modifier];
    const def = MODIFIER_KEYS[modifier];
    events.push({ type: 'keyUp', modifiers: mask, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, location: 1 });
  }
  return events;
}
