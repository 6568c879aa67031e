import { describe, expect, it } from 'vitest';
import { nextFocusIndex } from './focus-trap.js';

describe('nextFocusIndex', () => {
  it('moves forward and back, wrapping at both ends', () => {
    expect(nextFocusIndex(3, 0, false)).toBe(1);
    expect(nextFocusIndex(3, 2, false)).toBe(0);
    expect(nextFocusIndex(3, 0, true)).toBe(2);
    expect(nextFocusIndex(3, 2, true)).toBe(1);
  });

  it('enters the list from outside at the first stop, or the last going backwards', () => {
    expect(nextFocusIndex(3, -1, false)).toBe(0);
    expect(nextFocusIndex(3, -1, true)).toBe(2);
  });

  it('stays on a single stop, and has nowhere to go in an empty list', () => {
    expect(nextFocusIndex(1, 0, false)).toBe(0);
    expect(nextFocusIndex(1, 0, true)).toBe(0);
    expect(nextFocusIndex(0, -1, false)).toBe(-1);
  });
});
