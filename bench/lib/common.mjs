// Shared pieces of the benchmark: where the compiled host is, statistics, timing, temp dirs,
// child processes, and the Chromium flags every launch uses.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const projectRoot = path.resolve(benchDir, '..');
/** The compiled host (npm run build); CUTRIGHT_DIST points elsewhere when needed. */
export const distDir = path.resolve(process.env.CUTRIGHT_DIST ?? path.join(projectRoot, 'dist'));
export const rendererDir = path.join(distDir, 'renderer');
export const browserPath = process.env.CUTRIGHT_BROWSER ?? '/usr/bin/chromium';

/** Imports a compiled module of the host: `core('host/start-host.js')`. */
export function core(relative) {
  return import(pathToFileURL(path.join(distDir, 'src', relative)).href);
}

/** The flags every launch uses: the host's own (run.mjs imports this after copying the build). */
export const { CHROMIUM_ARGS: chromiumArgs } = await core('targets/chromium-launcher.js');

/** Milliseconds, sub-millisecond resolution, on the same clock across this process. */
export const now = () => performance.now();
/** Wall-clock milliseconds with sub-millisecond resolution (comparable across processes). */
export const wallNow = () => performance.timeOrigin + performance.now();

export function sorted(values) {
  return [...values].sort((a, b) => a - b);
}
/** Nearest-rank percentile (p in 0..100) of the values. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = sorted(values);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}
export function median(values) {
  if (values.length === 0) return NaN;
  const s = sorted(values);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * How long this process's main thread has waited for a CPU while ready to run, in ms (Linux,
 * from /proc schedstat); null elsewhere. A slow figure with little CPU used and a long wait was
 * the machine's doing, not the host's.
 */
export function cpuWaitMs() {
  try {
    return Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return null;
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function tempDir(prefix) {
  return mkdtemp(path.join(os.tmpdir(), `cutright-bench-${prefix}-`));
}
export async function removeDir(dir) {
  await rm(dir, { recursive: true, force: true }).catch(() => {});
}

/** Polls `probe` until it returns something other than undefined. */
export async function waitFor(probe, what, timeoutMs = 20_000, everyMs = 5) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * A child process speaking a small request/answer protocol over IPC: the child sends
 * `{ ready: ... }` once, then answers each `{ id, cmd, ...args }` with `{ id, ok, value | error }`.
 */
export async function startChild(script, args = [], { execArgv = [], env } = {}) {
  const child = fork(path.join(benchDir, 'children', script), args, {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map();
  let nextId = 1;
  let exited = false;
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`${script} exited (${code ?? signal}) before it was ready`)));
    child.on('message', (message) => {
      if (message && Object.hasOwn(message, 'ready')) resolve(message.ready);
      else if (message && pending.has(message.id)) {
        const { resolve: ok, reject: fail } = pending.get(message.id);
        pending.delete(message.id);
        if (message.ok) ok(message.value);
        else fail(new Error(`${script} ${message.cmd}: ${message.error}`));
      }
    });
  });
  child.once('exit', (code, signal) => {
    exited = true;
    for (const { reject } of pending.values()) reject(new Error(`${script} exited (${code ?? signal})`));
    pending.clear();
  });
  const readyValue = await ready;
  return {
    pid: child.pid,
    ready: readyValue,
    call(cmd, extra = {}) {
      if (exited) return Promise.reject(new Error(`${script} has exited`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, cmd, ...extra });
      });
    },
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** The child side of startChild: `serve({ cmd: async (args) => value })` after setup. */
export function serveParent(ready, handlers) {
  process.on('message', async (message) => {
    const handler = handlers[message.cmd];
    try {
      if (!handler) throw new Error(`unknown command ${message.cmd}`);
      const value = await handler(message);
      process.send({ id: message.id, cmd: message.cmd, ok: true, value: value ?? null });
    } catch (error) {
      process.send({ id: message.id, cmd: message.cmd, ok: false, error: error?.stack ?? String(error) });
    }
  });
  process.send({ ready });
}

/** RSS and heap after two full collections (the child runs with --expose-gc). */
export async function settledMemory() {
  for (let i = 0; i < 2; i++) {
    globalThis.gc?.();
    await sleep(50);
  }
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}
