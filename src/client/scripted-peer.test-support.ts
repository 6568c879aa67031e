// Test support: a small NDJSON JSON-RPC server on a real Unix socket in a temp folder,
// answering as each test scripts it, so the client meets every answer shape the contract
// allows or forbids. (The real host is tested against the client elsewhere.)
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LineDecoder, encodeLine } from '../service/framing.js';

export interface PeerRequest {
  id: unknown;
  method: string;
  params: unknown;
}

export interface PeerConnection {
  /** Sends one message as one line. */
  send(message: unknown): void;
  /** Sends text as it is (add the newline yourself). */
  sendRaw(text: string): void;
  /** Replies to a request with a result. */
  result(request: PeerRequest, result: unknown): void;
  /** Replies to a request with a tool error. */
  error(request: PeerRequest, code: string, message: string, retryable?: boolean): void;
  end(): void;
}

export type PeerScript = (request: PeerRequest, connection: PeerConnection) => void;

export interface ScriptedPeer {
  readonly socketPath: string;
  /** How many clients have connected. */
  readonly connections: number;
  /** Every request received, in order. */
  readonly requests: PeerRequest[];
  close(): Promise<void>;
}

export async function startScriptedPeer(script: PeerScript): Promise<ScriptedPeer> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'cutright-ctl-'));
  const socketPath = path.join(folder, 'agent-demo.sock');
  const requests: PeerRequest[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;

  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {}); // a client that drops mid-line is part of some tests
    const connection: PeerConnection = {
      send: (message) => socket.write(encodeLine(message)),
      sendRaw: (text) => socket.write(text),
      result: (request, result) => socket.write(encodeLine({ jsonrpc: '2.0', id: request.id, result })),
      error: (request, code, message, retryable = false) =>
        socket.write(encodeLine({ jsonrpc: '2.0', id: request.id, error: { code: -32000, message, data: { code, retryable } } })),
      end: () => socket.end(),
    };
    const decoder = new LineDecoder();
    socket.on('data', (chunk: Buffer) => {
      for (const event of decoder.push(chunk)) {
        if (event.kind !== 'line') continue;
        const message = JSON.parse(event.line) as PeerRequest;
        requests.push(message);
        script(message, connection);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });

  return {
    socketPath,
    get connections() {
      return connections;
    },
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
