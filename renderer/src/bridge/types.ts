import type { HostBridge } from '../../../src/host/bridge.js';

/** Whether the UI can reach the host right now. */
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/**
 * A HostBridge as the renderer uses it: the host's interface plus the transport's connection
 * status and a disposer. `onConnection` calls its listener with the current status at once.
 */
export interface UiBridge extends HostBridge {
  onConnection(listener: (status: ConnectionStatus) => void): () => void;
  dispose(): void;
}
