// gifenc (https://github.com/mattdesl/gifenc, MIT) ships no types: what this project uses of
// it, typed. It is CommonJS with an ES build beside it whose exports differ (no default);
// required, it is the same module under Node and under the test runner's resolver.
import { createRequire } from 'node:module';

export type Palette = number[][];

export interface GifEncoder {
  writeFrame(index: Uint8Array, width: number, height: number, options?: { palette?: Palette; delay?: number; repeat?: number }): void;
  finish(): void;
  bytes(): Uint8Array;
}

interface Gifenc {
  GIFEncoder(): GifEncoder;
  /** A palette of at most `maxColors` for RGBA pixels. */
  quantize(rgba: Uint8Array, maxColors: number): Palette;
  /** Each pixel's index in `palette`. */
  applyPalette(rgba: Uint8Array, palette: Palette): Uint8Array;
}

export const gifenc = createRequire(import.meta.url)('gifenc') as Gifenc;
