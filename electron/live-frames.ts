// Live frames to the main and kill-control windows over IPC: one frame in flight a window. The
// page's preload says when it has taken a frame (`cutright:frame-taken`); until then newer
// frames replace each other in one slot, so a slow or stalled window gets the newest frame
// next and the rest are dropped, never queued, and nothing on the kill path waits for it.
import type { IpcMainEvent, WebContents } from 'electron';
import type { LiveFrame } from '../src/ui-protocol/index.js';
import { CHANNEL_FRAME, FRAME_ROLES } from './ipc-channels.js';
import { checkSender, type RoleOf } from './ipc.js';

type FrameContents = Pick<WebContents, 'id' | 'isDestroyed' | 'send'>;

export interface LiveFrameSender {
  /** Offers `frame` to each window that shows live views (main and kill). */
  send(windows: Iterable<FrameContents>, frame: LiveFrame): void;
  /** Handles `cutright:frame-taken` from a window's preload. */
  taken(event: Pick<IpcMainEvent, 'sender' | 'senderFrame'>): void;
}

export function createLiveFrameSender(options: { roleOf: RoleOf; log?: (message: string) => void }): LiveFrameSender {
  const slots = new Map<number, { inFlight: boolean; next: LiveFrame | null; contents: FrameContents }>();
  const push = (slot: { inFlight: boolean; next: LiveFrame | null; contents: FrameContents }, frame: LiveFrame): void => {
    if (slot.contents.isDestroyed()) return void slots.delete(slot.contents.id);
    slot.inFlight = true;
    const { data, ...header } = frame;
    slot.contents.send(CHANNEL_FRAME, header, data);
  };
  return {
    send(windows, frame) {
      for (const contents of windows) {
        const role = options.roleOf(contents as WebContents);
        if (!role || !FRAME_ROLES.includes(role)) continue;
        let slot = slots.get(contents.id);
        if (!slot) slots.set(contents.id, (slot = { inFlight: false, next: null, contents }));
        if (slot.inFlight) slot.next = frame;
        else push(slot, frame);
      }
    },
    taken(event) {
      try {
        checkSender(event, options.roleOf);
      } catch (error) {
        options.log?.((error as Error).message);
        return;
      }
      const slot = slots.get(event.sender.id);
      if (!slot) return;
      slot.inFlight = false;
      const next = slot.next;
      slot.next = null;
      if (next) push(slot, next);
    },
  };
}
