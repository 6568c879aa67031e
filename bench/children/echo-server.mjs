// The baseline of the socket figure: a bare NDJSON echo server on a Unix socket. Each line
// is parsed and stringified again (the least a JSON-RPC server does), then written back.
import net from 'node:net';
import { rmSync } from 'node:fs';
import { serveParent } from '../lib/common.mjs';

const socketPath = process.argv[2];
rmSync(socketPath, { force: true });
const server = net.createServer((socket) => {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    let out = '';
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      out += JSON.stringify(JSON.parse(line)) + '\n';
    }
    if (out) socket.write(out);
  });
  socket.on('error', () => {});
});
server.maxConnections = 10_000;
server.listen(socketPath, () => serveParent({ socketPath, pid: process.pid }, {}));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
