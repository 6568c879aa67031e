// `--video demo.webm | demo.mp4`: the recording as a video, each step's caption and highlight
// drawn over its frames. The pictures are drawn and encoded with WebCodecs in a render page
// (render-page.ts); the encoded chunks are muxed here with mediabunny, straight into the file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EncodedPacket, EncodedVideoPacketSource, FilePathTarget, Mp4OutputFormat, Output, WebMOutputFormat } from 'mediabunny';
import { prepareOutput } from './output-file.js';
import { overlayOf, planVideo, type PlannedFrame, type VideoPlan } from './plan.js';
import { openRenderPage, type OpenRenderTarget, type RenderPage } from './render-page.js';
import type { EncodeResult, VideoFrameJob } from './render-page/protocol.js';
import { ExportError, type ExportSource } from './source.js';

export const VIDEO_FORMATS = ['webm', 'mp4'] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/** The codecs tried for each container, best first: WebCodecs' codec string and mediabunny's name. */
const CODECS: Record<VideoFormat, { codec: string; name: 'vp9' | 'vp8' | 'avc' }[]> = {
  webm: [
    { codec: 'vp09.00.41.08', name: 'vp9' },
    { codec: 'vp8', name: 'vp8' },
  ],
  mp4: [
    { codec: 'avc1.640028', name: 'avc' },
    { codec: 'avc1.4d0028', name: 'avc' },
    { codec: 'avc1.42e028', name: 'avc' },
  ],
};

/** A batch holds at most this many pictures, or this much JPEG (base64), whichever comes first. */
const BATCH_FRAMES = 24;
const BATCH_BYTES = 3 * 1024 * 1024;

export interface ExportResult {
  path: string;
  bytes: number;
  /** What the pictures were encoded as (WebCodecs' codec string). */
  codec: string;
  /** The video's length (ms), or the GIF's. */
  durationMs: number;
  /** Pictures encoded. */
  pictures: number;
}

export interface VideoExportOptions {
  source: ExportSource;
  out: string;
  format: VideoFormat;
  openTarget: OpenRenderTarget;
  /** Called as the work goes on, with the part done (0 to 1). */
  onProgress?: (done: number) => void;
}

async function pickCodec(page: RenderPage, format: VideoFormat, plan: VideoPlan) {
  const candidates = CODECS[format];
  const supported = await page.call('supported', candidates.map((c) => c.codec), plan.width, plan.height);
  const chosen = candidates.find((c) => supported.includes(c.codec));
  if (chosen) return chosen;
  throw new ExportError(
    format === 'mp4'
      ? "this Chromium's video encoder cannot encode H.264, which .mp4 needs: export .webm instead (VP9), or use a Chromium built with H.264"
      : `this Chromium's video encoder can encode neither VP9 nor VP8 at ${plan.width}×${plan.height}: point CUTRIGHT_BROWSER at another Chromium`,
  );
}

function* batches(frames: PlannedFrame[]): Generator<PlannedFrame[]> {
  for (let i = 0; i < frames.length; i += BATCH_FRAMES) yield frames.slice(i, i + BATCH_FRAMES);
}

/** Encodes the plan's pictures in `page`, batch by batch, handing each batch's chunks to `take`. */
async function encodePlan(page: RenderPage, source: ExportSource, plan: VideoPlan, take: (result: EncodeResult) => Promise<void>, progress: (t: number) => void): Promise<void> {
  let carried: string | null = null;
  const jobs = [...batches(plan.frames)];
  for (const [n, batch] of jobs.entries()) {
    const images: Record<string, string> = {};
    let bytes = 0;
    const frames: VideoFrameJob[] = [];
    for (const frame of batch) {
      if (frame.image && frame.image !== carried && !(frame.image in images)) {
        if (bytes > BATCH_BYTES && frames.length > 0) break;
        images[frame.image] = (await readFile(join(source.dir, frame.image))).toString('base64');
        bytes += images[frame.image]!.length;
      }
      const overlay = overlayOf(source.detail.steps, frame.step, frame.highlight, frame.gap, plan.width, plan.height);
      frames.push({ image: frame.image, overlay, timestamp: Math.round(frame.at * 1000), duration: Math.round(frame.duration * 1000), keyFrame: frame.keyFrame });
    }
    // A batch cut short by its bytes gives its rest to the next one.
    if (frames.length < batch.length) jobs.splice(n + 1, 0, batch.slice(frames.length));
    const last = n === jobs.length - 1;
    await take(await page.call('encode', { images, frames, last }));
    carried = frames.at(-1)?.image ?? carried;
    const end = batch[frames.length - 1]!;
    progress(end.at + end.duration);
  }
}

/** Writes the bundle's recording as a video at `out`; answers what was written. */
export async function exportVideo(options: VideoExportOptions): Promise<ExportResult> {
  const { source, format } = options;
  const plan = planVideo(source.recording, source.detail.steps);
  const output = await prepareOutput(options.out, source.dir);
  let page: RenderPage | undefined;
  try {
    options.onProgress?.(0);
    page = await openRenderPage(options.openTarget);
    const codec = await pickCodec(page, format, plan);
    await page.call('startVideo', { codec: codec.codec, width: plan.width, height: plan.height, bitrate: Math.round(plan.width * plan.height * 1.6) });
    const muxer = new Output({
      format: format === 'webm' ? new WebMOutputFormat() : new Mp4OutputFormat({ fastStart: 'in-memory' }),
      target: new FilePathTarget(output.partial),
    });
    const track = new EncodedVideoPacketSource(codec.name);
    muxer.addVideoTrack(track, { frameRate: 30 });
    await muxer.start();
    let meta: EncodedVideoChunkMetadata | undefined;
    let pictures = 0;
    await encodePlan(
      page,
      source,
      plan,
      async ({ chunks, decoderConfig }) => {
        if (decoderConfig) {
          meta = { decoderConfig: { codec: decoderConfig.codec, codedWidth: decoderConfig.codedWidth, codedHeight: decoderConfig.codedHeight } };
          if (decoderConfig.description) meta.decoderConfig!.description = Buffer.from(decoderConfig.description, 'base64');
        }
        for (const chunk of chunks) {
          const packet = new EncodedPacket(Buffer.from(chunk.data, 'base64'), chunk.key ? 'key' : 'delta', chunk.timestamp / 1e6, chunk.duration / 1e6);
          await track.add(packet, pictures === 0 ? meta : undefined);
          pictures += 1;
        }
      },
      (t) => options.onProgress?.(Math.min(0.99, t / plan.duration)),
    );
    if (pictures === 0) throw new Error('the encoder gave no pictures');
    await muxer.finalize();
    const bytes = await output.commit();
    options.onProgress?.(1);
    return { path: output.path, bytes, codec: codec.codec, durationMs: plan.duration, pictures };
  } catch (error) {
    await output.discard();
    throw error;
  } finally {
    await page?.close();
  }
}
