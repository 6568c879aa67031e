// The baseline of the memory figure: a bare Node socket server on a Unix socket that accepts
// connections and keeps them, doing nothing else.
import net from 'node:net';
import { rmSync } from 'node:fs';
import { serveParent, settledMemory } from '../lib/common.mjs';

const socketPath = process.argv[2];
rmSync(socketPath, { force: true });
const sockets = new Set();
const server = net.createServer((socket) => {
  sockets.add(socket);
  socket.on('data', () => {});
  socket.on('error', () => {});
  socket.on('close', () => sockets.delete(socket));
});
server.maxConnections = 10_000;
server.listen(socketPath, () =>
  serveParent({ socketPath }, { memory: async () => ({ ...(await settledMemory()), connections: sockets.size }) }),
);
process.on('SIGTERM', () => process.exit(0));
