import { describe, expect, it } from 'vitest';
import { autoCaption, captionParts, captionText, focusArea, keyWords, scalePlace } from './presentation.js';

describe('captions from receipts', () => {
  it('say what was done to which element, its name in bold', () => {
    expect(autoCaption({ op: 'click', role: 'button', label: 'Submit' })).toBe('Click **Submit**');
    expect(autoCaption({ op: 'type', role: 'textbox', label: 'Name', text: 'Ada' })).toBe('Type "Ada" into **Name**');
    expect(autoCaption({ op: 'press', role: 'searchbox', label: 'Search', key: 'enter' })).toBe('Press Enter in **Search**');
    expect(autoCaption({ op: 'press', role: 'textbox', label: 'Doc', key: 'ctrl+shift+a' })).toBe('Press Ctrl+Shift+A in **Doc**');
    expect(autoCaption({ op: 'click', role: 'button', label: '' })).toBe('Click the button');
    expect(autoCaption({ op: 'click', role: 'button', label: 'a **b** c' })).toBe('Click **a *b* c**');
    expect(autoCaption({ op: 'type', role: 'textbox', label: 'Bio', text: 'x'.repeat(100) })).toBe(`Type "${'x'.repeat(59)}…" into **Bio**`);
  });

  it('names keys the way people read them', () => {
    expect(keyWords('arrowdown')).toBe('Down');
    expect(keyWords('cmd+s')).toBe('Cmd+S');
    expect(keyWords('pageup')).toBe('Page Up');
    expect(keyWords('f5')).toBe('F5');
  });

  it('split into plain and bold runs; an unpaired ** stays text', () => {
    expect(captionParts('Click **Submit** now')).toEqual([
      { text: 'Click ', strong: false },
      { text: 'Submit', strong: true },
      { text: ' now', strong: false },
    ]);
    expect(captionParts('2 ** 3')).toEqual([{ text: '2 ', strong: false }, { text: '** 3', strong: false }]);
    expect(captionText('Type "Ada" into **Name**')).toBe('Type "Ada" into Name');
  });
});

describe('the zoomed part of a picture', () => {
  it('holds the box with room around it, in the picture, at its aspect ratio', () => {
    const box = { x: 1200, y: 650, width: 60, height: 40 };
    const area = focusArea(box, 1280, 720);
    expect(area.x).toBeLessThanOrEqual(box.x);
    expect(area.y).toBeLessThanOrEqual(box.y);
    expect(area.x + area.width).toBeLessThanOrEqual(1280);
    expect(area.y + area.height).toBeLessThanOrEqual(720);
    expect(area.x + area.width).toBeGreaterThanOrEqual(box.x + box.width);
    expect(area.width / area.height).toBeCloseTo(1280 / 720, 1);
    // A box as big as the picture shows the whole picture.
    expect(focusArea({ x: 0, y: 0, width: 1280, height: 720 }, 1280, 720)).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
  });

  it('scales a place to a smaller picture', () => {
    const place = { box: { x: 100, y: 200, width: 80, height: 40 }, point: { x: 140, y: 220 }, viewport: { width: 1280, height: 720 } };
    expect(scalePlace(place, 640, 360)).toEqual({ box: { x: 50, y: 100, width: 40, height: 20 }, point: { x: 70, y: 110 }, viewport: { width: 640, height: 360 } });
  });
});
