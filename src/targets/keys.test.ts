import { describe, expect, it } from 'vitest';
import { ToolError } from '../contract/errors.js';
import { keyEventSequence, parseKey } from './keys.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ToolError ? `${error.code}: ${error.message}` : `plain: ${String(error)}`;
  }
  return undefined;
}

describe('parseKey', () => {
  it('parses named keys, letters, digits and function keys, case-insensitively', () => {
    expect(parseKey('Enter', 'linux').main).toEqual({ key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    expect(parseKey('tab', 'linux').main).toMatchObject({ key: 'Tab', code: 'Tab', keyCode: 9 });
    expect(parseKey('esc', 'linux').main.key).toBe('Escape');
    expect(parseKey('space', 'linux').main).toEqual({ key: ' ', code: 'Space', keyCode: 32, text: ' ' });
    expect(parseKey('ArrowLeft', 'linux').main.code).toBe('ArrowLeft');
    expect(parseKey('pagedown', 'linux').main.keyCode).toBe(34);
    expect(parseKey('q', 'linux').main).toEqual({ key: 'q', code: 'KeyQ', keyCode: 81, text: 'q' });
    expect(parseKey('7', 'linux').main).toEqual({ key: '7', code: 'Digit7', keyCode: 55, text: '7' });
    expect(parseKey('F12', 'linux').main).toEqual({ key: 'F12', code: 'F12', keyCode: 123 });
    expect(parseKey(' ctrl + s ', 'linux').canonical).toBe('Control+KeyS');
  });

  it('maps cmd to Meta on macOS and Control elsewhere; meta is always Meta', () => {
    expect(parseKey('cmd+s', 'darwin').modifiers).toEqual(['Meta']);
    expect(parseKey('cmd+s', 'linux').modifiers).toEqual(['Control']);
    expect(parseKey('cmd+s', 'win32').modifiers).toEqual(['Control']);
    expect(parseKey('meta+s', 'linux').modifiers).toEqual(['Meta']);
  });

  it('orders modifiers, builds the CDP mask, and drops text under ctrl/alt/meta', () => {
    const parsed = parseKey('shift+alt+ctrl+arrowright', 'linux');
    expect(parsed.modifiers).toEqual(['Control', 'Alt', 'Shift']);
    expect(parsed.mask).toBe(2 | 1 | 8);
    expect(parseKey('ctrl+a', 'linux').main.text).toBeUndefined();
    expect(parseKey('shift+a', 'linux').main).toMatchObject({ key: 'A', text: 'A' });
  });

  it('refuses unknown keys and malformed specs with invalid_arguments naming the part', () => {
    expect(codeOf(() => parseKey('ctrl+banana', 'linux'))).toMatch(/^invalid_arguments: unknown key "banana"/);
    expect(codeOf(() => parseKey('hyper+a', 'linux'))).toMatch(/^invalid_arguments: unknown modifier "hyper"/);
    expect(codeOf(() => parseKey('', 'linux'))).toMatch(/^invalid_arguments: key is empty/);
    expect(codeOf(() => parseKey('ctrl+', 'linux'))).toMatch(/^invalid_arguments: .*no key name/);
    expect(codeOf(() => parseKey('ctrl++a', 'linux'))).toMatch(/^invalid_arguments: .*empty part/);
    expect(codeOf(() => parseKey('shift+shift+a', 'linux'))).toMatch(/^invalid_arguments: modifier "shift" appears twice/);
    expect(codeOf(() => parseKey('shift', 'linux'))).toMatch(/^invalid_arguments: a modifier alone is not a key "shift"/);
    expect(codeOf(() => parseKey('f13', 'linux'))).toMatch(/unknown key "f13"/);
  });
});

describe('keyEventSequence', () => {
  it('presses modifiers, the key (keyDown with text when printable) and releases in reverse', () => {
    const events = keyEventSequence(parseKey('ctrl+shift+z', 'linux'), 'linux');
    expect(events.map((e) => [e.type, e.key, e.modifiers])).toEqual([
      ['rawKeyDown', 'Control', 2],
      ['rawKeyDown', 'Shift', 10],
      ['rawKeyDown', 'Z', 10],
      ['keyUp', 'Z', 10],
      ['keyUp', 'Shift', 2],
      ['keyUp', 'Control', 0],
    ]);
    const enter = keyEventSequence(parseKey('enter', 'linux'), 'linux');
    expect(enter[0]).toMatchObject({ type: 'keyDown', key: 'Enter', text: '\r', windowsVirtualKeyCode: 13 });
  });

  it('adds macOS editing commands only on macOS', () => {
    const mac = keyEventSequence(parseKey('cmd+a', 'darwin'), 'darwin');
    expect(mac.find((e) => e.key === 'a')).toMatchObject({ commands: ['selectAll'] });
    const linux = keyEventSequence(parseKey('backspace', 'linux'), 'linux');
    expect(linux[0]).not.toHaveProperty('commands');
  });
});
