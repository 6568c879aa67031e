// The agent side of the socket figure, in its own process: raw NDJSON JSON-RPC (the same code
// against the echo and the host), each connection keeping one request in flight.
//   node rtt-client.mjs <socket> <connections> <requests per connection> <warm-up per connection>
// Prints one JSON line: { throughput (round trips/s), p50Ms, p99Ms, count }.
import net from 'node:net';

const [socketPath, connArg, countArg, warmArg] = process.argv.slice(2);
const connections = Number(connArg);
const perConnection = Number(countArg);
const warmup = Number(warmArg);

function connect() {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.setEncoding('utf8');
      resolve(socket);
    });
  });
}

/** Runs `total` sequential round trips on one socket; resolves their latencies (ms). */
function runLoop(socket, total, latencies) {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let id = 0;
    let sentAt = 0;
    const send = () => {
      id += 1;
      sentAt = performance.now();
      socket.write(`{"jsonrpc":"2.0","id":${id},"method":"demo.apps","params":{}}\n`);
    };
    const onData = (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const answer = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (answer.id !== id || answer.error) {
          socket.off('data', onData);
          reject(new Error(`unexpected answer ${JSON.stringify(answer)}`));
          return;
        }
        latencies?.push(performance.now() - sentAt);
        if (id === total) {
          socket.off('data', onData);
          resolve();
          return;
        }
        send();
      }
    };
    socket.on('data', onData);
    send();
  });
}

const sockets = await Promise.all(Array.from({ length: connections }, connect));
await Promise.all(sockets.map((socket) => runLoop(socket, warmup, null)));
const latencies = [];
const started = performance.now();
await Promise.all(sockets.map((socket) => runLoop(socket, perConnection, latencies)));
const elapsed = performance.now() - started;
for (const socket of sockets) socket.destroy();
latencies.sort((a, b) => a - b);
const at = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
process.stdout.write(
  JSON.stringify({ count: latencies.length, throughput: (latencies.length / elapsed) * 1000, p50Ms: at(50), p99Ms: at(99) }) + '\n',
);
