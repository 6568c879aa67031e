// A demo client inside the test process itself, on a raw socket: so the host's reading of
// "who is asking" can be checked against this very process (its pid and executable), and
// a connection can be dropped at a chosen moment.
import net from 'node:net';
import type { RunningHost } from './host-fixture.js';

export interface RawCall {
  /** The JSON-RPC answer (result or error), or the socket's end. */
  answer: Promise<Record<string, unknown>>;
  /** Drops the connection (a pending consent is then denied). */
  close(): void;
}

export function rawRequest(host: Pick<RunningHost, 'socket'>, params: Record<string, unknown>): RawCall {
  const socket = net.connect(host.socket);
  let buffer = '';
  const answer = new Promise<Record<string, unknown>>((resolve) => {
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n') && line) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    socket.on('close', () => resolve({ closed: true }));
    socket.on('error', () => {});
  });
  socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'demo.request', params })}\n`);
  return { answer, close: () => socket.destroy() };
}
