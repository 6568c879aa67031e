// The tray (menu bar) icon's content: whether a demo is live, and Stop demo. Pure, so the
// menu is tested without Electron; main.ts turns it into a Menu and a NativeImage.
import type { HostView } from '../src/ui-protocol/index.js';

export type TrayAction = 'stop-all' | 'show-main' | 'quit';

export type TrayItem = { kind: 'status'; label: string } | { kind: 'action'; label: string; action: TrayAction; enabled: boolean } | { kind: 'separator' };

export interface TrayModel {
  live: boolean;
  tooltip: string;
  items: TrayItem[];
}

/** The name an agent gave is its claim, never a verified identity: say so wherever it is shown. */
function agentClaim(agentName: string): string {
  return `agent claims to be "${agentName}"`;
}

export function trayModel(view: HostView | null): TrayModel {
  const live = view?.live ?? [];
  const status: TrayItem[] =
    live.length === 0
      ? [{ kind: 'status', label: view?.consent ? `Asking to allow a demo of ${view.consent.appName}` : 'No demo running' }]
      : live.map((session) => ({
          kind: 'status' as const,
          label: `Demo ${session.phase === 'armed' ? 'live' : 'starting'}: ${session.appName} (${agentClaim(session.agentName)}), ${session.steps} step${session.steps === 1 ? '' : 's'}`,
        }));
  const tooltip =
    live.length === 0
      ? `CutRight: ${view && !view.demoMode ? 'demo mode off' : 'no demo running'}`
      : `CutRight: demo live (${live.map((session) => session.appName).join(', ')})`;
  return {
    live: live.length > 0,
    tooltip,
    items: [
      ...status,
      { kind: 'separator' },
      { kind: 'action', label: 'Stop demo', action: 'stop-all', enabled: live.length > 0 },
      { kind: 'action', label: 'Open CutRight', action: 'show-main', enabled: true },
      { kind: 'separator' },
      { kind: 'action', label: 'Quit CutRight', action: 'quit', enabled: true },
    ],
  };
}

/**
 * The tray icon as raw BGRA pixels (nativeImage.createFromBitmap): a ring, filled red while
 * a demo is live. Drawn here so the packaged app needs no image files for it.
 */
export function trayIconBitmap(size: number, live: boolean): Buffer {
  if (!Number.isInteger(size) || size < 8 || size > 256) throw new RangeError(`tray icon size must be an integer from 8 to 256, got ${size}`);
  const pixels = Buffer.alloc(size * size * 4);
  const centre = (size - 1) / 2;
  const outer = size / 2 - 0.5;
  const inner = outer * 0.62;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const distance = Math.hypot(x - centre, y - centre);
      let colour: [number, number, number, number] | null = null;
      if (distance <= inner && live) colour = [0x30, 0x30, 0xe0, 0xff]; // red dot (B, G, R, A)
      else if (distance <= outer && distance >= outer - Math.max(1.5, size / 10)) colour = live ? [0x30, 0x30, 0xe0, 0xff] : [0x80, 0x80, 0x80, 0xff];
      if (colour) pixels.set(colour, (y * size + x) * 4);
    }
  }
  return pixels;
}
