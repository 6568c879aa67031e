import { describe, expect, it } from 'vitest';
import { displayText, middleText, shortText } from './display-text.js';

describe('displayText: an agent name shown as data', () => {
  it('shows bidi controls as codes instead of obeying them', () => {
    const shown = displayText('Claude \u202Edeifirev ton\u202C');
    expect(shown.short).toBe('Claude [U+202E]deifirev ton[U+202C]');
    expect(shown.neutralised).toBe(2);
    for (const control of ['\u202A', '\u202B', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']) {
      expect(shortText(`a${control}b`)).toBe(`a[U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]b`);
    }
  });

  it('shows invisible and control characters as codes', () => {
    expect(shortText('Ver\u200Bified\u00AD \uFEFF\u2060x\u0007\u{E0041}')).toBe('Ver[U+200B]ified[U+00AD] [U+FEFF][U+2060]x[U+0007][U+E0041]');
    expect(shortText('\u3164\u115F')).toBe('[U+3164][U+115F]');
  });

  it('collapses every kind of whitespace, no-break spaces and line breaks included', () => {
    expect(shortText(`my${'\u00A0'.repeat(4000)}agent\n\n\t\u2003\u3000\u2028verified publisher `)).toBe('my agent verified publisher');
  });

  it('cuts long text for display and keeps the whole', () => {
    const name = 'x'.repeat(10_000);
    const shown = displayText(name, 60);
    expect(shown.cut).toBe(true);
    expect(shown.short).toBe(`${'x'.repeat(60)}…`);
    expect(shown.full).toBe(name);
    expect(shown.length).toBe(10_000);
  });

  it('cuts by character, never inside a surrogate pair', () => {
    expect(shortText('😀'.repeat(10), 3)).toBe('😀😀😀…');
  });

  it('leaves ordinary names, other scripts included, as they are', () => {
    for (const name of ['Claude', 'my agent 2', 'אגנט', 'エージェント', 'Zoë']) expect(displayText(name)).toMatchObject({ short: name, cut: false, neutralised: 0 });
  });
});

describe('middleText: paths and URLs', () => {
  it('keeps both ends of a long path', () => {
    const cut = middleText(`/home/me/${'d/'.repeat(100)}bin/agent`, 40);
    expect(Array.from(cut)).toHaveLength(40);
    expect(cut.startsWith('/home/me/')).toBe(true);
    expect(cut.endsWith('bin/agent')).toBe(true);
    expect(cut).toContain('…');
  });
  it('neutralises what it shows', () => {
    expect(middleText('/tmp/\u202Etxt.exe')).toBe('/tmp/[U+202E]txt.exe');
  });
});
