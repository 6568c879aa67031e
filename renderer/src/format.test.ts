import { describe, expect, it } from 'vitest';
import { describeElapsed, describeEnd, describeReason, describeStep, formatElapsed, formatTimestamp, plural, queueText, stepPictureAlt } from './format.js';

describe('formatElapsed', () => {
  it.each([
    [0, '0:00'],
    [999, '0:00'],
    [1000, '0:01'],
    [59_999, '0:59'],
    [60_000, '1:00'],
    [605_000, '10:05'],
    [3_600_000, '1:00:00'],
    [3_725_000, '1:02:05'],
    [-5000, '0:00'],
    [Number.NaN, '0:00'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });
});

describe('describeElapsed', () => {
  it('says the span in words', () => {
    expect(describeElapsed(0)).toBe('0 seconds');
    expect(describeElapsed(1000)).toBe('1 second');
    expect(describeElapsed(61_000)).toBe('1 minute 1 second');
    expect(describeElapsed(7_200_000)).toBe('2 hours');
  });
});

describe('small words', () => {
  it('plural', () => {
    expect(plural(1, 'step')).toBe('1 step');
    expect(plural(0, 'step')).toBe('0 steps');
    expect(plural(12, 'step')).toBe('12 steps');
  });
  it('queueText', () => {
    expect(queueText(0)).toBeNull();
    expect(queueText(1)).toBe('1 more request is waiting');
    expect(queueText(3)).toBe('3 more requests are waiting');
  });
  it('formatTimestamp in a given zone', () => {
    expect(formatTimestamp(Date.UTC(2025, 10, 30, 8, 7, 5), 'UTC')).toBe('2025-11-30 08:07:05');
    expect(formatTimestamp(Number.NaN)).toBe('unknown');
  });
});

describe('describeStep and stepPictureAlt', () => {
  it('says what the step did', () => {
    expect(describeStep({ op: 'click', role: 'button', label: 'Submit' })).toBe('click button "Submit"');
    expect(describeStep({ op: 'type', role: 'textbox', label: 'Name', text: 'Ada' })).toBe('type "Ada" into textbox "Name"');
    expect(describeStep({ op: 'press', role: 'textbox', label: 'Name', key: 'Enter' })).toBe('press Enter on textbox "Name"');
    expect(stepPictureAlt(2, { op: 'click', role: 'link', label: 'Help' })).toBe('Step 2: click link "Help"');
  });
});

describe('describeReason and describeEnd', () => {
  it('puts the host\'s reason in words and keeps its code', () => {
    expect(describeReason('kill control')).toBe('Stop demo was pressed (kill control)');
    expect(describeReason('demo mode off')).toBe('Demo mode was switched off (demo mode off)');
    expect(describeReason('something new')).toBe('something new');
    expect(describeReason('target could not open: no browser found')).toBe('the app could not be opened (target could not open): no browser found');
    expect(describeReason('disk full: ENOSPC: no space left')).toBe('the disk was full (disk full): ENOSPC: no space left');
  });

  it('says how a bundle ended in one sentence', () => {
    const at = Date.UTC(2025, 10, 30, 8, 27, 5);
    expect(describeEnd('complete', 'demo.end', at, 'UTC')).toBe('Sealed complete at 2025-11-30 08:27:05: the agent ended the session (demo.end).');
    expect(describeEnd('killed', 'host crash', null)).toBe('Sealed killed: CutRight host stopped unexpectedly (host crash).');
    expect(describeEnd('killed', null, at, 'UTC')).toBe('Sealed killed at 2025-11-30 08:27:05.');
    expect(describeEnd('open', null, null)).toBe('The session is still running.');
  });
});
