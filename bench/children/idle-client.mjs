// Opens N connections to a Unix socket and keeps them open, idle, until told to stop.
//   node idle-client.mjs <socket> <N>
import net from 'node:net';
import { serveParent } from '../lib/common.mjs';

const [socketPath, countArg] = process.argv.slice(2);
function connect() {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('error', reject);
    socket.once('connect', () => resolve(socket));
  });
}
const sockets = [];
for (let i = 0; i < Number(countArg); i++) {
  for (let attempt = 0; ; attempt++) {
    try {
      sockets.push(await connect());
      break;
    } catch (error) {
      // EAGAIN: the server's accept backlog is full for a moment; it drains as it accepts.
      if (error.code !== 'EAGAIN' || attempt > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
serveParent({ open: sockets.length }, {});
process.on('SIGTERM', () => {
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});
