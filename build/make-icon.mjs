#!/usr/bin/env node
// Draws CutRight's app icon (build/icon.png, 512x512 RGBA) with nothing but zlib: a dark
// rounded square holding a red recording dot inside a white ring. Deterministic, so the
// committed PNG can be re-made and compared:  node build/make-icon.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync } from 'node:zlib';

const SIZE = 512;
const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'icon.png');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Signed distance from (x, y) to a rounded square centred in the icon (negative inside). */
function roundedSquare(x, y, half, radius) {
  const c = SIZE / 2;
  const qx = Math.abs(x - c) - (half - radius);
  const qy = Math.abs(y - c) - (half - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

/** The colour at a point, [r, g, b, a] in 0..1, before anti-aliasing. */
function shade(x, y) {
  const c = SIZE / 2;
  const r = Math.hypot(x - c, y - c);
  if (roundedSquare(x, y, 232, 96) > 0) return [0, 0, 0, 0];
  if (r <= 112) return [0.88, 0.16, 0.2, 1]; // the recording dot
  if (r >= 150 && r <= 178) return [0.96, 0.96, 0.97, 1]; // the ring
  return [0.1, 0.12, 0.16, 1]; // the square
}

export function drawIcon() {
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  const samples = [0.25, 0.75];
  for (let y = 0; y < SIZE; y += 1) {
    const row = y * (SIZE * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < SIZE; x += 1) {
      // 2x2 supersampling: smooth edges, premultiplied while averaging.
      let [r, g, b, a] = [0, 0, 0, 0];
      for (const sy of samples) {
        for (const sx of samples) {
          const [cr, cg, cb, ca] = shade(x + sx, y + sy);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const at = row + 1 + x * 4;
      raw[at] = a ? Math.round((r / a) * 255) : 0;
      raw[at + 1] = a ? Math.round((g / a) * 255) : 0;
      raw[at + 2] = a ? Math.round((b / a) * 255) : 0;
      raw[at + 3] = Math.round((a / 4) * 255);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  // Read it back: the pixels must survive the trip.
  if (!inflateSync(png.subarray(8 + 25 + 8, png.length - 12 - 4)).equals(raw)) throw new Error('icon PNG does not round-trip');
  return png;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const png = drawIcon();
  if (process.argv.includes('--check')) {
    const same = readFileSync(OUT).equals(png);
    process.stdout.write(same ? 'build/icon.png is up to date\n' : 'build/icon.png differs from what make-icon.mjs draws\n');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, png);
  process.stdout.write(`wrote ${OUT} (${SIZE}x${SIZE}, ${png.length} bytes)\n`);
}
