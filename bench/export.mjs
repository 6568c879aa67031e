// Figure 12: exports people send (issue: a demo worth sharing). A real 2-minute session of 60
// steps on the fixture, recorded by the real host (screencast frames, step pictures, sealed),
// exported to video (WebM/VP9 and MP4/H.264), GIF and HTML; each export's time against the
// recording's own duration (the baseline: faster than real time is the target), and the sizes.
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { core, now, removeDir, tempDir } from './lib/common.mjs';
import { recordFixtureDemo, startBenchHost } from './lib/harness.mjs';

const { exportVideo } = await core('export/video.js');
const { exportGif } = await core('export/gif.js');
const { readExportSource } = await core('export/source.js');
const { exportBundleHtml } = await core('bundle/export-html.js');
const { openInFreshContext } = await core('targets/chromium-launcher.js');

const STEPS = 60;
const RECORDING_MS = 120_000;

async function timed(work) {
  const started = now();
  const result = await work();
  return { ms: now() - started, result };
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

export async function benchExport({ browser, log }) {
  const host = await startBenchHost({ browser, fixtures: true });
  const out = await tempDir('export');
  try {
    log?.(`export: recording ${STEPS} steps over ${RECORDING_MS / 1000} s…`);
    const { dir } = await recordFixtureDemo(host, { acts: STEPS, paceMs: RECORDING_MS / STEPS, text: (i) => ` ${['Ada', 'Grace', 'Alan', 'Edsger'][i % 4]}` });
    const frames = (await readdir(path.join(dir, 'recording'))).filter((f) => f.endsWith('.jpg')).length;
    const source = await readExportSource(dir);
    const last = source.recording.at(-1);
    const recordingMs = last.at - source.recording[0].at;
    const openTarget = () => openInFreshContext(browser, 'about:blank');
    const webm = await timed(() => exportVideo({ source, out: path.join(out, 'demo.webm'), format: 'webm', openTarget }));
    const mp4 = await timed(() => exportVideo({ source, out: path.join(out, 'demo.mp4'), format: 'mp4', openTarget }));
    const gif = await timed(() => exportGif({ source, out: path.join(out, 'demo.gif'), openTarget }));
    const html = await timed(async () => {
      const page = await exportBundleHtml(dir);
      await writeFile(path.join(out, 'demo.html'), page);
      return { bytes: (await stat(path.join(out, 'demo.html'))).size };
    });
    log?.(`export: ${frames} frames, ${(recordingMs / 1000).toFixed(1)} s; webm ${webm.ms.toFixed(0)} ms ${webm.result.bytes} B (${webm.result.pictures} pictures), mp4 ${mp4.ms.toFixed(0)} ms ${mp4.result.bytes} B, gif ${gif.ms.toFixed(0)} ms ${gif.result.bytes} B, html ${html.ms.toFixed(0)} ms ${html.result.bytes} B`);
    const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
    const baseline = `recording ${seconds(recordingMs)}`;
    const row = (what, t, size) => ({
      figure: `12 export → ${what}, ${STEPS} steps, ${seconds(recordingMs)} recording (${frames} frames)`,
      value: `${seconds(t.ms)}, ${mib(size)}`,
      baseline,
      ratio: t.ms / recordingMs,
      target: '< 1 (faster than real time)',
      met: t.ms < recordingMs,
    });
    const rows = [
      row(`WebM (${webm.result.codec})`, webm, webm.result.bytes),
      row(`MP4 (${mp4.result.codec})`, mp4, mp4.result.bytes),
      row('HTML', html, html.result.bytes),
      { ...row(`GIF (${gif.result.pictures} stills)`, gif, gif.result.bytes), target: 'info', met: null },
    ];
    return {
      rows,
      detail: {
        frames,
        recordingMs,
        webm: { ms: webm.ms, bytes: webm.result.bytes, pictures: webm.result.pictures, codec: webm.result.codec },
        mp4: { ms: mp4.ms, bytes: mp4.result.bytes, pictures: mp4.result.pictures, codec: mp4.result.codec },
        gif: { ms: gif.ms, bytes: gif.result.bytes },
        html: { ms: html.ms, bytes: html.result.bytes },
      },
    };
  } finally {
    await removeDir(out);
    await host.stop();
  }
}
