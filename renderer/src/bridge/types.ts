import type { HostBridge } from '../../../src/ui-protocol/index.js';

/** Whether the UI can reach the host right now. */
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/**
 * A HostBridge as the renderer uses it: the host's calls and view, plus what only a transport
 * knows: where pictures are served, the connection status and a disposer. `onConnection`
 * calls its listener with the current status at once.
 */
export interface UiBridge extends HostBridge {
  /** A URL the page can show a bundle's picture from. */
  pictureUrl(bundleId: string, picture: string): string;
  onConnection(listener: (status: ConnectionStatus) => void): () => void;
  dispose(): void;
}
