// What the export's in-page renderer and its Node side say to each other (plain data, shared
// by both). Every size and place is in the output's pixels: the Node side scales the receipt's
// box and point, so the page only draws.

/** The global the renderer installs itself as in the export page. */
export const RENDERER_GLOBAL = '__cutrightRenderer';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is drawn over a picture: the step's highlight and its caption; a gap's slate instead of a picture. */
export interface Overlay {
  /** The acted element's outline (HIGHLIGHT_COLOUR), and the click's marker. */
  box?: Rect;
  point?: { x: number; y: number };
  /** The outline's width in output pixels. */
  stroke?: number;
  colour: string;
  /** `Step 3 of 12` and the caption in runs (bold marks the element's name). */
  caption?: { step: string; parts: { text: string; strong: boolean }[] };
  /** No picture here: the recording has a gap, for this reason. */
  gap?: string;
}

/** One picture to draw: an image (by key, given as JPEG base64 in the same call or the one before), and what goes over it. */
export interface DrawJob {
  image: string | null;
  overlay: Overlay;
}

export interface EncoderSetup {
  /** A WebCodecs codec string: `vp09.00.31.08`, `vp8`, `avc1.4d0028`. */
  codec: string;
  width: number;
  height: number;
  bitrate: number;
}

export interface VideoFrameJob extends DrawJob {
  /** Microseconds from the video's start. */
  timestamp: number;
  duration: number;
  keyFrame: boolean;
}

export interface EncodedChunkOut {
  key: boolean;
  /** Microseconds. */
  timestamp: number;
  duration: number;
  /** The chunk's bytes, base64. */
  data: string;
}

export interface DecoderConfigOut {
  codec: string;
  codedWidth: number;
  codedHeight: number;
  /** The codec's private data (avcC for H.264), base64. */
  description?: string;
}

export interface EncodeBatch {
  /** JPEG images (base64) by key, for this batch's frames. */
  images: Record<string, string>;
  frames: VideoFrameJob[];
  /** The last batch: flush the encoder. */
  last: boolean;
}

export interface EncodeResult {
  chunks: EncodedChunkOut[];
  /** Given with the first chunk. */
  decoderConfig: DecoderConfigOut | null;
}

/** The renderer as the export page holds it (RENDERER_GLOBAL). */
export interface PageRenderer {
  /** Which of these codec strings this Chromium's VideoEncoder can encode at this size. */
  supported(codecs: string[], width: number, height: number): Promise<string[]>;
  startVideo(setup: EncoderSetup): Promise<void>;
  encode(batch: EncodeBatch): Promise<EncodeResult>;
  /** One still: its RGBA pixels, base64 (for the GIF). */
  still(job: DrawJob & { jpeg: string | null; width: number; height: number }): Promise<string>;
}
