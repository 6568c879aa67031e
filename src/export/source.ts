// What a video or GIF export is made from: a sealed bundle that verifies, its steps (with the
// person's caption edits) and its recording's timeline. Read once, checked first: an export
// of a bundle that does not verify would pass off changed pictures as the sealed record.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { verifyBundle, type VerifyOptions } from '../bundle/index.js';
import { annotationsOf } from '../bundle/annotations.js';
import { detailOf, readBundleEvents } from '../bundle/read.js';
import { parseRecording, RECORDING_INDEX, type RecordingLine } from '../bundle/recording-format.js';
import type { BundleDetail } from '../bundle/views.js';

/** A bundle cannot be exported as asked; the message says what and what to do. */
export class ExportError extends Error {
  override name = 'ExportError';
}

export interface ExportSource {
  dir: string;
  detail: BundleDetail;
  /** The recording's lines in order (frames and gaps); empty when the bundle has no recording. */
  recording: RecordingLine[];
}

/** Verifies the bundle in `dir` and reads what an export needs; an ExportError when it cannot be exported. */
export async function readExportSource(dir: string, verify: VerifyOptions = {}): Promise<ExportSource> {
  const result = await verifyBundle(dir, verify);
  if (!result.ok) {
    if (result.problem.startsWith('missing: the bundle is not sealed')) {
      throw new ExportError(`${dir} is not a sealed bundle yet (its session is still recording, or its host stopped before sealing it; start the host once to seal it), so it cannot be exported`);
    }
    throw new ExportError(`${dir} does not verify (${result.file}: ${result.problem}), so it is not exported: an export of a changed bundle would pass changes off as the record`);
  }
  const events = await readBundleEvents(dir, basename(dir));
  const detail = detailOf(events, await annotationsOf(dir, basename(dir)));
  let recording: RecordingLine[] = [];
  try {
    recording = parseRecording(await readFile(join(dir, RECORDING_INDEX))).lines;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { dir, detail, recording };
}
