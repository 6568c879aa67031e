// The export's in-page renderer: draws each picture of a video or GIF on a canvas and encodes
// the video with WebCodecs' VideoEncoder, in a page of the Chromium the host drives (a secure
// context, as WebCodecs needs). The Node side (src/export/render-page.ts) feeds it batches and
// muxes what comes back. scripts/gen-page-agent.mjs bundles this file into
// render-page.generated.ts.
import { drawPicture } from './draw.js';
import { RENDERER_GLOBAL, type DecoderConfigOut, type EncodeBatch, type EncodedChunkOut, type EncoderSetup, type PageRenderer } from './protocol.js';

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const decodeJpeg = (base64: string): Promise<ImageBitmap> => createImageBitmap(new Blob([fromBase64(base64)], { type: 'image/jpeg' }));

export function install(): PageRenderer {
  let encoder: VideoEncoder | null = null;
  let canvas: OffscreenCanvas | null = null;
  let failure: Error | null = null;
  let pending: EncodedChunkOut[] = [];
  let decoderConfig: DecoderConfigOut | null = null;
  let configSent = false;
  // The images of the last batch, by key: the next batch may go on showing its last one.
  let images = new Map<string, ImageBitmap>();

  const renderer: PageRenderer = {
    async supported(codecs, width, height) {
      const ok: string[] = [];
      for (const codec of codecs) {
        try {
          if ((await VideoEncoder.isConfigSupported({ codec, width, height, bitrate: 2_000_000 })).supported) ok.push(codec);
        } catch {
          // An unknown codec string is not supported.
        }
      }
      return ok;
    },
    async startVideo(setup: EncoderSetup) {
      canvas = new OffscreenCanvas(setup.width, setup.height);
      encoder = new VideoEncoder({
        output(chunk, meta) {
          const data = new Uint8Array(chunk.byteLength);
          chunk.copyTo(data);
          pending.push({ key: chunk.type === 'key', timestamp: chunk.timestamp, duration: chunk.duration ?? 0, data: toBase64(data) });
          const config = meta?.decoderConfig;
          if (config && !decoderConfig) {
            decoderConfig = { codec: config.codec, codedWidth: config.codedWidth ?? setup.width, codedHeight: config.codedHeight ?? setup.height };
            if (config.description) {
              const d = config.description;
              decoderConfig.description = toBase64(ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : new Uint8Array(d));
            }
          }
        },
        error(error) {
          failure = error instanceof Error ? error : new Error(String(error));
        },
      });
      const config: VideoEncoderConfig = { codec: setup.codec, width: setup.width, height: setup.height, bitrate: setup.bitrate, framerate: 30, latencyMode: 'quality' };
      if (setup.codec.startsWith('avc1')) config.avc = { format: 'avc' };
      encoder.configure(config);
    },
    async encode(batch: EncodeBatch) {
      if (!encoder || !canvas) throw new Error('startVideo was not called');
      const next = new Map<string, ImageBitmap>();
      for (const [key, jpeg] of Object.entries(batch.images)) next.set(key, await decodeJpeg(jpeg));
      for (const job of batch.frames) if (job.image && !next.has(job.image) && images.has(job.image)) next.set(job.image, images.get(job.image)!);
      for (const [key, bitmap] of images) if (!next.has(key)) bitmap.close();
      images = next;
      const ctx = canvas.getContext('2d')!;
      for (const job of batch.frames) {
        if (failure) throw failure;
        drawPicture(ctx, job.image ? (images.get(job.image) ?? null) : null, job.overlay, canvas.width, canvas.height);
        const frame = new VideoFrame(canvas, { timestamp: job.timestamp, duration: job.duration });
        encoder.encode(frame, { keyFrame: job.keyFrame });
        frame.close();
        // Keep the encoder's queue short: the page holds frames, not the whole video.
        while (encoder.encodeQueueSize > 4) await new Promise((resolve) => encoder!.addEventListener('dequeue', resolve, { once: true }));
      }
      if (batch.last) await encoder.flush();
      if (failure) throw failure;
      const chunks = pending;
      pending = [];
      const config = !configSent && decoderConfig ? decoderConfig : null;
      if (config) configSent = true;
      if (batch.last) encoder.close();
      return { chunks, decoderConfig: config };
    },
    async still(job) {
      const still = new OffscreenCanvas(job.width, job.height);
      const ctx = still.getContext('2d', { willReadFrequently: true })!;
      const bitmap = job.jpeg ? await decodeJpeg(job.jpeg) : null;
      drawPicture(ctx, bitmap, job.overlay, job.width, job.height);
      bitmap?.close();
      const pixels = ctx.getImageData(0, 0, job.width, job.height).data;
      return toBase64(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength));
    },
  };
  (globalThis as Record<string, unknown>)[RENDERER_GLOBAL] = renderer;
  return renderer;
}
