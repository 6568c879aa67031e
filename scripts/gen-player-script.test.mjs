// The export's player script is generated from its TypeScript: the committed module must match
// what the generator makes from the sources now (a stale one would ship an old player).
import { describe, expect, it } from 'vitest';
import { isCurrent, playerScript } from './gen-player-script.mjs';

describe('the export player script', () => {
  it('the committed player-script.generated.ts is current (run node scripts/gen-player-script.mjs)', () => {
    expect(isCurrent()).toBe(true);
  });

  it('is one script with no closing tag inside and no network or eval', () => {
    const source = playerScript();
    expect(source).not.toMatch(/<\/script/i);
    expect(() => new Function(source)).not.toThrow();
    expect(source).not.toMatch(/\bfetch\(|XMLHttpRequest|\beval\(|new Function|importScripts|WebSocket/);
  });
});
