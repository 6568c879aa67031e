// "Check this app" in the settings: opens an app of the catalog (or one being added) where
// nobody sees it, asks the driver whether it may be captured, and closes it again. The same
// launcher and driver as a session, so the answer is the one a session would get; no
// session, consent or bundle is involved, and no agent can ask for it.
import type { AppEntry } from '../settings/settings.js';
import type { CaptureStatus, TargetLauncher } from '../targets/types.js';
import type { AppCheckResult } from '../ui-protocol/index.js';
import type { DriverFactory } from './session-resources.js';

export interface AppCheckDeps {
  launcher: TargetLauncher;
  createDriver: DriverFactory;
  /** Whether the app points at the host's own pages (never a target). */
  isHostItself(app: AppEntry): boolean;
  /** How long a page that is not (yet) capture-safe has to become so after its first answer. Default 2 s. */
  settleMs?: number;
  /** The longest the whole check may take. Default 20 s. */
  timeoutMs?: number;
}

/** Waits for the first capture-safe status, or the last status heard once `settleMs` passed after the first. */
function settledStatus(watch: (listener: (status: CaptureStatus) => void) => () => void, settleMs: number, timeoutMs: number): Promise<CaptureStatus> {
  return new Promise((resolve) => {
    let last: CaptureStatus | undefined;
    let settle: NodeJS.Timeout | undefined;
    const done = (status: CaptureStatus): void => {
      clearTimeout(settle);
      clearTimeout(overall);
      stop();
      resolve(status);
    };
    const overall = setTimeout(() => done(last ?? { state: 'unknown', reason: `the page did not report its capture state within ${timeoutMs / 1000} s` }), timeoutMs);
    // A page may declare itself once its script ran: a first `unsafe` or `unknown` gets a moment to change.
    const stop = watch((status) => {
      last = status;
      if (status.state === 'safe') return done(status);
      settle ??= setTimeout(() => done(last!), settleMs);
    });
  });
}

export async function checkApp(app: AppEntry, deps: AppCheckDeps): Promise<AppCheckResult> {
  const result = (status: CaptureStatus): AppCheckResult => ({ url: app.url, state: status.state, reason: status.reason ?? null });
  if (deps.isHostItself(app)) {
    return result({ state: 'unsafe', reason: `${app.url} is CutRight host itself, which is never a target` });
  }
  let target;
  try {
    target = await deps.launcher.open(app.url, { hidden: true });
  } catch (error) {
    const why = ((error as Error).message ?? String(error)).split('\n')[0];
    return result({ state: 'unknown', reason: `${app.name} could not be opened at ${app.url}: ${why}` });
  }
  try {
    const driver = await deps.createDriver(target, app);
    try {
      return result(await settledStatus((listener) => driver.watchCaptureState(listener), deps.settleMs ?? 2000, deps.timeoutMs ?? 20_000));
    } finally {
      await driver.close().catch(() => {});
    }
  } catch (error) {
    return result({ state: 'unknown', reason: `the page could not be checked: ${(error as Error).message ?? String(error)}` });
  } finally {
    await target.close().catch(() => {});
  }
}
