import type { HostView } from '../../../src/ui-protocol/index.js';

/**
 * The host's views fanned out to the UI's subscribers: each new subscriber gets the latest
 * view at once, then every later one. Both transports keep one of these.
 */
export function createViewFanout() {
  const listeners = new Set<(view: HostView) => void>();
  let latest: HostView | null = null;
  return {
    publish(view: HostView): void {
      latest = view;
      for (const listener of [...listeners]) listener(view);
    },
    subscribe(listener: (view: HostView) => void): () => void {
      listeners.add(listener);
      if (latest) listener(latest);
      return () => void listeners.delete(listener);
    },
    clear(): void {
      listeners.clear();
    },
  };
}
