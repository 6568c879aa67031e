// Verify's checks of a sealed bundle's recording: the index is an unbroken chain whose head and
// counts are the ones the end event recorded, and every frame it names is the listed file with
// the index's size and digest. (That each listed file is present and unchanged is checked with
// the other files: a changed or missing frame is named there, e.g. `recording/17.jpg`.)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EndEvent } from './format.js';
import type { ManifestFile } from './manifest.js';
import { FRAME_FILE_PATTERN, RECORDING_INDEX, parseRecording, summarizeRecording } from './recording-format.js';

/** The first problem with the recording as `{ file, problem }`, or null when it is whole. */
export async function recordingProblem(
  dir: string,
  end: EndEvent,
  listed: ReadonlyMap<string, ManifestFile>,
): Promise<{ file: string; problem: string } | null> {
  const hasIndex = listed.has(RECORDING_INDEX);
  if (!end.recording) {
    if (hasIndex) return { file: RECORDING_INDEX, problem: 'the end event records no recording, yet the bundle holds one' };
    return null;
  }
  if (!hasIndex) return { file: RECORDING_INDEX, problem: 'the end event records a recording, but its index is not in manifest.json' };
  const parsed = parseRecording(await readFile(join(dir, RECORDING_INDEX)));
  if (parsed.problem) return { file: RECORDING_INDEX, problem: `line ${parsed.problem.line}: ${parsed.problem.message}` };
  if (parsed.tornTail) return { file: RECORDING_INDEX, problem: 'ends with a partial line' };
  const summary = summarizeRecording(parsed.lines, parsed.head);
  for (const field of ['head', 'frames', 'gaps', 'bytes'] as const) {
    if (summary[field] !== end.recording[field]) {
      return { file: RECORDING_INDEX, problem: `its ${field} is ${JSON.stringify(summary[field])}, the end event says ${JSON.stringify(end.recording[field])}` };
    }
  }
  const named = new Set<string>();
  for (const line of parsed.lines) {
    if (line.type !== 'frame') continue;
    named.add(line.file);
    const file = listed.get(line.file);
    if (!file) return { file: line.file, problem: `named in ${RECORDING_INDEX} (seq ${line.seq}) but not in manifest.json` };
    if (file.size !== line.size || file.sha256 !== line.sha256) return { file: line.file, problem: `differs from its line in ${RECORDING_INDEX} (seq ${line.seq})` };
  }
  const unreferenced = new Set(end.unreferencedFiles ?? []);
  for (const path of listed.keys()) {
    if (FRAME_FILE_PATTERN.test(path) && !named.has(path) && !unreferenced.has(path)) {
      return { file: path, problem: `a frame ${RECORDING_INDEX} does not name (and the end event does not list as unreferenced)` };
    }
  }
  return null;
}
