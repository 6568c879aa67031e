// The bundle tools of the store: caption edits, verify, export, reveal, copy path, delete.
// Each tool's outcome is kept per bundle (`bundleTasks`) for the views to show in words.
import type { BundleDetail, ExportFormat } from '../../src/ui-protocol/index.js';
import { messageOf } from './format.js';
import type { BundleTask, StoreBridge, StoreGet, StoreSet, UiActions } from './store.js';

type Tools = Pick<UiActions, 'editCaption' | 'verifyBundle' | 'exportBundle' | 'revealBundle' | 'copyBundlePath' | 'deleteBundle'>;

const EXPORTED_AS: Record<ExportFormat, string> = { html: 'HTML', webm: 'a video (WebM)', mp4: 'a video (MP4)', gif: 'a GIF' };

function kilobytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function bundleTools(bridge: StoreBridge, set: StoreSet, get: StoreGet, showDetail: (bundleId: string, detail: BundleDetail) => void): Tools {
  const task = (bundleId: string): BundleTask => get().bundleTasks[bundleId] ?? { busy: null, outcome: null, path: null };
  const update = (bundleId: string, patch: Partial<BundleTask>): void => {
    set({ bundleTasks: { ...get().bundleTasks, [bundleId]: { ...task(bundleId), ...patch } } });
  };
  /** Runs one tool: busy while it runs, then its outcome (or its failure) in words. */
  const run = async (bundleId: string, name: string, work: () => Promise<Partial<BundleTask> & { outcome: BundleTask['outcome'] }>, failed: string): Promise<void> => {
    if (task(bundleId).busy) return;
    update(bundleId, { busy: name });
    try {
      update(bundleId, { ...(await work()), busy: null });
    } catch (error) {
      update(bundleId, { busy: null, outcome: { ok: false, text: `${failed}: ${messageOf(error)}` } });
    }
  };

  return {
    async editCaption(bundleId, receiptId, caption) {
      try {
        showDetail(bundleId, await bridge.editCaption(bundleId, receiptId, caption));
        return { ok: true };
      } catch (error) {
        return { ok: false, message: messageOf(error) };
      }
    },
    verifyBundle: (bundleId) =>
      run(
        bundleId,
        'verify',
        async () => {
          const result = await bridge.verifyBundle(bundleId);
          if (!result.ok) return { outcome: { ok: false, text: `Does not verify: ${result.file}: ${result.problem}` } };
          const edits = result.editedCaptions > 0 ? ` ${result.editedCaptions === 1 ? '1 caption was' : `${result.editedCaptions} captions were`} edited afterwards (signed, in annotations.json); the recording itself is unchanged.` : '';
          return { outcome: { ok: true, text: `Verified: sealed and intact, signed by ${result.fingerprint}.${edits}` } };
        },
        'Could not verify',
      ),
    exportBundle: (bundleId, format) =>
      run(
        bundleId,
        `export-${format}`,
        async () => {
          const { path, bytes } = await bridge.exportBundle(bundleId, format);
          return { path, outcome: { ok: true, text: `Exported as ${EXPORTED_AS[format]} (${kilobytes(bytes)}) to ${path}` } };
        },
        'Could not export',
      ),
    revealBundle: (bundleId) =>
      run(
        bundleId,
        'reveal',
        async () => {
          const { path, opened, problem } = await bridge.revealBundle(bundleId);
          return { path, outcome: opened ? { ok: true, text: `Opened the folder ${path}` } : { ok: false, text: `Could not open the folder (${problem}); it is ${path}` } };
        },
        'Could not open the folder',
      ),
    copyBundlePath: (bundleId) =>
      run(
        bundleId,
        'copy',
        async () => {
          const path = await bridge.locateBundle(bundleId);
          if (!bridge.copyText) return { path, outcome: { ok: false, text: `This window cannot copy; the folder is ${path}` } };
          await bridge.copyText(path);
          return { path, outcome: { ok: true, text: `Copied the path ${path}` } };
        },
        'Could not copy the path',
      ),
    async deleteBundle(bundleId) {
      await run(
        bundleId,
        'delete',
        async () => {
          await bridge.deleteBundle(bundleId);
          if (get().bundle?.bundleId === bundleId) set({ bundle: null });
          set({ bundles: get().bundles?.filter((b) => b.bundleId !== bundleId) ?? null });
          return { outcome: { ok: true, text: 'Deleted.' } };
        },
        'Could not delete',
      );
    },
  };
}
