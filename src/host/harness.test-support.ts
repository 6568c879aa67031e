// Shared by the host's conformance, consent and race tests: a real host core with a real
// Chromium and the fixture, a launcher wrapper that keeps each opened target (so a test can
// close or crash the page, or read it), a raw NDJSON peer for lines the client would refuse
// to send, and small waiting helpers. Nothing here stands in for a part of the host.
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ToolError } from '../contract/errors.js';
import { FIXTURE_APP_ID } from '../contract/fixture-id.js';
import type { SnapshotElement } from '../contract/types.js';
import { DemoClient } from '../client/client.js';
import { LineDecoder } from '../service/framing.js';
import { createChromiumLauncher } from '../targets/chromium-launcher.js';
import type { OpenedTarget, TargetLauncher } from '../targets/types.js';
import type { HostView } from '../ui-protocol/index.js';
import { startHostCore, type HostCore } from './start-host.js';

/** A real launcher, wrapped: keeps every target it opened and can hold `open` until released. */
export class KeepingLauncher implements TargetLauncher {
  readonly opened: OpenedTarget[] = [];
  /** The URL of the latest open. */
  lastUrl = '';
  private gate: Promise<void> | null = null;
  private release: (() => void) | null = null;

  constructor(private readonly inner: TargetLauncher) {}

  /** Later opens wait until the returned function is called (arming stays slow). */
  hold(): () => void {
    this.gate = new Promise((resolve) => (this.release = resolve));
    return () => {
      this.release?.();
      this.gate = null;
    };
  }

  /**
   * From now on, keeps one freshly loaded page of `url` ready ahead of the next open, so tests
   * that open hundreds of sessions do not wait for a page load on each (it is still a real
   * page, loaded for that session only).
   */
  prewarm(url: string): void {
    this.warmUrl = url;
    this.warm ??= this.inner.open(url);
  }

  private warmUrl: string | null = null;
  private warm: Promise<OpenedTarget> | null = null;

  async open(url: string): Promise<OpenedTarget> {
    if (this.gate) await this.gate;
    let target: OpenedTarget;
    if (this.warm && url === this.warmUrl) {
      const ready = this.warm;
      this.warm = this.inner.open(url);
      this.warm.catch(() => {});
      target = await ready;
    } else {
      target = await this.inner.open(url);
    }
    this.opened.push(target);
    this.lastUrl = url;
    return target;
  }

  get last(): OpenedTarget {
    const target = this.opened.at(-1);
    if (!target) throw new Error('no target was opened yet');
    return target;
  }

  async close(): Promise<void> {
    const warm = this.warm;
    this.warm = null;
    await warm?.then((target) => target.close()).catch(() => {});
    return this.inner.close();
  }
}

/** Runs `expression` in the target page's main world and returns its value. */
export async function evaluate<T>(target: OpenedTarget, expression: string): Promise<T> {
  const answer = await target.transport.send<{ result: { value?: unknown }; exceptionDetails?: unknown }>('Runtime.evaluate', {
    expression,
    returnByValue: true,
    awaitPromise: true,
  });
  if (answer.exceptionDetails) throw new Error(`page script failed: ${JSON.stringify(answer.exceptionDetails)}`);
  return answer.result.value as T;
}

export interface TestCore {
  core: HostCore;
  launcher: KeepingLauncher;
  client: DemoClient;
  dataDir: string;
  /** The host's view as the UI last saw it. */
  view(): HostView;
  stop(): Promise<void>;
}

export async function startTestCore(options: { inner?: TargetLauncher; fixtures?: boolean; log?: (message: string) => void } = {}): Promise<TestCore> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cutright-conf-'));
  const launcher = new KeepingLauncher(options.inner ?? createChromiumLauncher());
  const core = await startHostCore({
    dataDir,
    socketPath: path.join(dataDir, 'run', 'agent-demo.sock'),
    fixtures: options.fixtures ?? true,
    launcher,
    answeredBy: 'conformance test',
    ...(options.log ? { log: options.log } : {}),
  });
  let latest!: HostView;
  core.host.bridge.subscribe((view) => (latest = view));
  const client = await DemoClient.connect(core.socket.socketPath);
  return {
    core,
    launcher,
    client,
    dataDir,
    view: () => latest,
    async stop() {
      await client.close();
      await core.stop();
    },
  };
}

/** The ToolError code a call fails with, or 'ok'. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return error.code;
    throw error;
  }
  return 'ok';
}

export async function errorOf(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits for the dialog of `agent` and answers it as the person would. */
export async function answer(t: TestCore, agent: string, reply: 'allow' | 'deny'): Promise<void> {
  const prompt = await waitFor(() => (t.view().consent?.agentName === agent ? (t.view().consent ?? undefined) : undefined), `the consent dialog of ${agent}`);
  await t.core.host.bridge.answerConsent(prompt.consentId, reply);
}

let agents = 0;

/** Requests a session for the fixture and allows it. */
export async function openSession(t: TestCore, client: DemoClient = t.client): Promise<{ session: string; token: string; app: string }> {
  const agent = `agent ${++agents}`;
  const request = client.call('demo.request', { app: FIXTURE_APP_ID, agent_name: agent });
  await answer(t, agent, 'allow');
  return request;
}

/** Snapshots once the session is armed. */
export async function armedSnapshot(client: DemoClient, token: string): Promise<SnapshotElement[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      return (await client.call('demo.snapshot', { token })).elements;
    } catch (error) {
      if (!(error instanceof ToolError) || error.code !== 'not_armed' || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

export function find(elements: SnapshotElement[], role: string, label: string): SnapshotElement {
  const element = elements.find((e) => e.role === role && e.label === label);
  if (!element) throw new Error(`no ${role} "${label}" among ${elements.map((e) => `${e.role} "${e.label}"`).join(', ')}`);
  return element;
}

/** A peer that writes raw lines to the socket and reads raw answers (for what the client refuses to send). */
export class RawPeer {
  readonly socket: net.Socket;
  readonly received: Record<string, unknown>[] = [];
  readonly closed: Promise<void>;
  private readonly decoder = new LineDecoder(64 * 1024 * 1024);
  private waiters: (() => void)[] = [];

  constructor(socketPath: string) {
    this.socket = net.connect(socketPath);
    this.socket.on('data', (chunk: Buffer) => {
      for (const event of this.decoder.push(chunk)) if (event.kind === 'line') this.received.push(JSON.parse(event.line) as Record<string, unknown>);
      this.waiters.splice(0).forEach((wake) => wake());
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  send(raw: string): void {
    this.socket.write(raw);
  }

  /** Sends one line and returns the answer with that id. */
  async call(id: number | string, method: string, params?: unknown): Promise<Record<string, unknown>> {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }) + '\n');
    return this.answerTo(id);
  }

  async answerTo(id: unknown, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex((message) => message['id'] === id);
      if (index !== -1) return this.received.splice(index, 1)[0] as Record<string, unknown>;
      if (Date.now() > deadline) throw new Error(`no answer with id ${JSON.stringify(id)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The `{rpc, code}` of a raw error answer, for compact assertions. */
export function rawError(answer: Record<string, unknown>): { id: unknown; rpc: number; code: string } {
  const error = answer['error'] as { code: number; data: { code: string } } | undefined;
  if (!error) throw new Error(`expected an error, got ${JSON.stringify(answer)}`);
  return { id: answer['id'], rpc: error.code, code: error.data.code };
}
