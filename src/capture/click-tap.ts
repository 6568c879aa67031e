// Where the agent last clicked, for the live view: read off the CDP input the driver sends
// (its mouse presses), so the driver needs no hook of its own.
import type { CdpTransport } from '../targets/types.js';

/** A point in the page's CSS pixels (the top document's viewport). */
export interface ClickPoint {
  x: number;
  y: number;
  at: number;
}

/** `transport`, passing every call through, telling `onClick` of each mouse press it carries. */
export function tapClicks(transport: CdpTransport, onClick: (point: ClickPoint) => void, now: () => number = Date.now): CdpTransport {
  const tapped: CdpTransport = {
    send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
      if (method === 'Input.dispatchMouseEvent' && params?.type === 'mousePressed' && typeof params.x === 'number' && typeof params.y === 'number') {
        onClick({ x: params.x, y: params.y, at: now() });
      }
      return transport.send<T>(method, params);
    },
    on: (event, listener) => transport.on(event, listener),
    closed: transport.closed,
  };
  if (transport.child) tapped.child = (sessionId) => (transport.child as (id: string) => CdpTransport)(sessionId);
  return tapped;
}
