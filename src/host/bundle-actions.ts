// What the person can do with a bundle from the UI, beyond reading it: verify it, export it,
// find its folder (reveal it in the file manager, copy its path), delete it. The host's side
// of those bridge calls; the shells supply only how a folder is shown in the file manager.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportBundleHtml, verifyBundle, type BundleStore } from '../bundle/index.js';
import type { OpenRenderTarget } from '../export/render-page.js';
import { readExportSource } from '../export/source.js';
import type { BridgeResult, ExportFormat, ExportProgress } from '../ui-protocol/index.js';

/** Shows a folder in the platform's file manager; rejects with why it could not. */
export type RevealFolder = (path: string) => Promise<void>;

/** The platform's own opener (the web shell's): `open` on macOS, `explorer` on Windows, `xdg-open` elsewhere. */
export const systemRevealFolder: RevealFolder = (path) =>
  new Promise((resolve, reject) => {
    const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    const child = spawn(command, [path], { stdio: 'ignore', detached: true });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? `${command} is not installed here, so no file manager can be opened` : error.message)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });

/** A file name for an export people can read: app, start time, then the id's random part. */
export function exportFileName(summary: { appName: string; startedAt: number; bundleId: string }, extension: string): string {
  const app = summary.appName.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'demo';
  const when = new Date(summary.startedAt).toISOString().slice(0, 16).replace(/[:T]/g, '-');
  return `${app}-${when}-${summary.bundleId.slice(-8)}.${extension}`;
}

export interface BundleActions {
  verifyBundle(bundleId: string): Promise<BridgeResult<'verifyBundle'>>;
  exportBundle(bundleId: string, format: ExportFormat): Promise<BridgeResult<'exportBundle'>>;
  /** The exports running now and how far each is, for the view. */
  exporting(): ExportProgress[];
  locateBundle(bundleId: string): Promise<string>;
  revealBundle(bundleId: string): Promise<BridgeResult<'revealBundle'>>;
  deleteBundle(bundleId: string): Promise<void>;
}

export interface BundleActionsOptions {
  bundles: BundleStore;
  exportsDir: string;
  revealFolder: RevealFolder;
  /** A bundle was deleted: the list changed. */
  changed: () => void;
  /** Opens the page a video or GIF is drawn and encoded in (export/render-page.ts). */
  openRenderTarget: OpenRenderTarget;
  /** An export started, went on or ended: the view's `exports` changed. */
  progressed: () => void;
}

export function bundleActions(options: BundleActionsOptions): BundleActions {
  const { bundles } = options;
  const running = new Map<string, ExportProgress>();

  /** Runs one video or GIF export of a bundle, its progress in the view (in whole percents) meanwhile. */
  async function exportMedia(bundleId: string, format: Exclude<ExportFormat, 'html'>) {
    // Claimed before anything is awaited, so a second export of the same bundle is refused at once.
    if (running.has(bundleId)) throw new Error(`this bundle is being exported already (as ${running.get(bundleId)!.format}); wait for that to finish`);
    const progress: ExportProgress = { bundleId, format, done: 0 };
    running.set(bundleId, progress);
    options.progressed();
    const onProgress = (done: number) => {
      const rounded = Math.floor(done * 100) / 100;
      if (rounded === progress.done) return;
      progress.done = rounded;
      options.progressed();
    };
    try {
      const dir = await bundles.folderOf(bundleId);
      const path = await exportPath(bundleId, format);
      const source = await readExportSource(dir);
      // Loaded on first export: the muxer and the GIF encoder cost an idle host about 15 MB.
      const result =
        format === 'gif'
          ? await (await import('../export/gif.js')).exportGif({ source, out: path, openTarget: options.openRenderTarget, onProgress })
          : await (await import('../export/video.js')).exportVideo({ source, out: path, format, openTarget: options.openRenderTarget, onProgress });
      return { path: result.path, bytes: result.bytes };
    } finally {
      running.delete(bundleId);
      options.progressed();
    }
  }

  async function exportPath(bundleId: string, format: ExportFormat): Promise<string> {
    const { summary } = await bundles.get(bundleId);
    await mkdir(options.exportsDir, { recursive: true, mode: 0o700 });
    return join(options.exportsDir, exportFileName(summary, format));
  }

  return {
    async verifyBundle(bundleId) {
      const result = await verifyBundle(await bundles.folderOf(bundleId));
      if (!result.ok) return { ok: false, file: result.file, problem: result.problem, fingerprint: null, editedCaptions: 0, editedAt: null };
      return { ok: true, file: null, problem: null, fingerprint: result.fingerprint, editedCaptions: result.edits?.captions ?? 0, editedAt: result.edits?.updatedAt ?? null };
    },
    async exportBundle(bundleId, format) {
      if (format !== 'html') return exportMedia(bundleId, format);
      const dir = await bundles.folderOf(bundleId);
      const path = await exportPath(bundleId, format);
      const html = await exportBundleHtml(dir);
      await writeFile(path, html, { mode: 0o600 });
      return { path, bytes: Buffer.byteLength(html) };
    },
    exporting: () => [...running.values()].map((p) => ({ ...p })),
    locateBundle: (bundleId) => bundles.folderOf(bundleId),
    async revealBundle(bundleId) {
      const path = await bundles.folderOf(bundleId);
      try {
        await options.revealFolder(path);
        return { path, opened: true, problem: null };
      } catch (error) {
        return { path, opened: false, problem: (error as Error).message };
      }
    },
    async deleteBundle(bundleId) {
      await bundles.delete(bundleId);
      options.changed();
    },
  };
}
