// Shared by the capture tests: finding the fixture's #ff00ff Private panel in a JPEG by colour.
import jpeg from 'jpeg-js';

/** Pixels close to #ff00ff (JPEG blurs colours a little). */
export function magentaPixels(data: Buffer): number {
  const image = jpeg.decode(data, { useTArray: true, formatAsRGBA: false });
  const pixels = image.data;
  let count = 0;
  for (let i = 0; i + 2 < pixels.length; i += 3) {
    if ((pixels[i] as number) > 200 && (pixels[i + 1] as number) < 80 && (pixels[i + 2] as number) > 200) count += 1;
  }
  return count;
}

/** True when the picture shows the Private panel (or any part of it bigger than a few pixels). */
export function showsPrivatePanel(data: Buffer): boolean {
  return magentaPixels(data) > 16;
}

export function waitFor(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (condition()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}
