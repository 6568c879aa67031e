// A second `cutright` with the same data folder or socket as a running host (issue 10 item 2):
// it exits naming the running host's socket and UI URL and changes nothing; the running host's
// live session goes on, its next act gets a receipt, and its bundle ends `complete`.
// `cutright open` finds the same URL. Real processes, a real socket, a real target.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DemoClient } from '../src/client/client.js';
import { armedElements, autoAllow } from './bridge-helpers.js';
import { bundleList, expect, startHost, test } from './host-fixture.js';
import { FIXTURE } from './ui-helpers.js';

const root = path.resolve(import.meta.dirname, '..');
const cutright = (...args: string[]) => spawnSync(process.execPath, [path.join(root, 'bin', 'cutright.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });

test('a refused second start leaves the running host and its live session untouched', async ({ shell }) => {
  test.skip(shell === 'electron', "answers consent over the web shell's WebSocket bridge; the lock under test is the shared core's (start-host.ts)");
  const host = await startHost();
  const bridge = autoAllow(host);
  const client = await DemoClient.connect(host.socket);
  try {
    const granted = await client.call('demo.request', { app: FIXTURE, agent_name: 'second start' });
    const elements = await armedElements(client, granted.token);
    const name = elements.find((e) => e.label === 'Name')!;
    await client.call('demo.act', { token: granted.token, ref: name.ref, op: 'type', text: 'before,' });

    // Same data folder and socket; then the same socket with another data folder.
    const same = cutright('--ui', 'web', '--json', '--fixtures', '--data-dir', host.dataDir, '--socket', host.socket);
    expect(same.status, same.stderr).toBe(3);
    expect(JSON.parse(same.stdout)).toMatchObject({ ready: false, already_running: { socket: host.socket, ui_url: host.uiUrl, data_dir: host.dataDir } });
    const otherData = mkdtempSync(path.join(os.tmpdir(), 'cutright-e2e-other-'));
    const sameSocket = cutright('--ui', 'web', '--fixtures', '--data-dir', otherData, '--socket', host.socket);
    expect(sameSocket.status).toBe(3);
    expect(sameSocket.stderr).toContain(`already running with this socket`);
    expect(sameSocket.stderr).toContain(`UI ${host.uiUrl}`);

    const open = cutright('open', '--print', '--data-dir', host.dataDir);
    expect(open.status, open.stderr).toBe(0);
    expect(open.stdout.trim()).toBe(host.uiUrl);

    // The running host's session is live: the next act gets a receipt and the end seals it complete.
    const after = await client.call('demo.act', { token: granted.token, ref: name.ref, op: 'type', text: 'after' });
    expect(after.receipt_id).toBeTruthy();
    const ended = await client.call('demo.end', { token: granted.token });
    expect(ended).toMatchObject({ ended: true, bundle_state: 'complete' });
    expect(bundleList(host)).toEqual([expect.objectContaining({ state: 'complete', steps: 2 })]);
  } finally {
    bridge.terminate();
    await client.close();
    expect(await host.stop()).toBe(0);
  }
  // Stopped: the lock is gone, and `cutright open` says no host runs there.
  const none = cutright('open', '--print', '--data-dir', host.dataDir);
  expect(none.status).toBe(1);
  expect(none.stderr).toMatch(/no CutRight host is running with the data folder/);
});
