import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsError, SettingsStore, validateSettings } from './settings-store.js';

const app = { id: 'app.example', name: 'Example', url: 'https://example.com/start', allowedOrigins: ['https://example.com'] };

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'cutright-settings-'));
}

describe('settings', () => {
  it('starts from the defaults when there is no file: Demo mode on, no apps, none denied', async () => {
    const store = await SettingsStore.open(await tempDir());
    expect(store.settings).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toEqual({ demoMode: true, apps: [], deniedApps: [] });
  });

  it('saves atomically with mode 0600 and loads what it saved', async () => {
    const dir = await tempDir();
    const store = await SettingsStore.open(dir);
    const saved = await store.save({ demoMode: false, apps: [app], deniedApps: ['app.other', 'app.other'] });
    expect(saved.deniedApps).toEqual(['app.other']);
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    const again = await SettingsStore.open(dir);
    expect(again.settings).toEqual(saved);
  });

  it('hands out settings nobody can change behind its back (frozen, deeply)', async () => {
    const store = await SettingsStore.open(await tempDir());
    const saved = await store.save({ demoMode: true, apps: [app], deniedApps: [] });
    expect(() => (store.settings.apps as unknown[]).push(app)).toThrow(TypeError);
    expect(() => ((store.settings.apps[0] as { name: string }).name = 'x')).toThrow(TypeError);
    saved.apps.pop(); // what save returned is the caller's own copy
    expect(store.settings.apps).toEqual([app]);
  });

  it.each([
    [{ demoMode: 'yes', apps: [], deniedApps: [] }, /settings\.demoMode must be boolean/],
    [{ demoMode: true, apps: [] }, /missing required field "deniedApps"/],
    [{ demoMode: true, apps: [], deniedApps: [], extra: 1 }, /must NOT have additional properties/],
    [{ demoMode: true, apps: [{ ...app, id: 'bad id!' }], deniedApps: [] }, /settings\.apps\[0\]\.id must match pattern/],
    [{ demoMode: true, apps: [app, app], deniedApps: [] }, /settings\.apps\[1\]\.id "app\.example" is listed twice/],
    [{ demoMode: true, apps: [{ ...app, url: 'file:///etc/passwd' }], deniedApps: [] }, /is not an http or https URL/],
    [{ demoMode: true, apps: [{ ...app, allowedOrigins: ['https://example.com/path'] }], deniedApps: [] }, /allowedOrigins\[0\] .* is not an origin/],
    [{ demoMode: true, apps: [{ ...app, allowedOrigins: ['https://other.com'] }], deniedApps: [] }, /must include the app's own origin https:\/\/example\.com/],
    [{ demoMode: true, apps: [{ ...app, id: 'app.orthiclabs.demo-fixture' }], deniedApps: [] }, /is reserved/],
  ])('refuses %j with a message naming the field', (value, message) => {
    expect(() => validateSettings(value, ['app.orthiclabs.demo-fixture'])).toThrow(message);
  });

  it('refuses to load a broken file, naming the file', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'settings.json');
    await writeFile(file, '{ not json');
    await expect(SettingsStore.open(dir)).rejects.toThrow(/settings\.json is not valid JSON \(line 1, column 3: /);
    await writeFile(file, JSON.stringify({ demoMode: true, apps: [{ id: 'x' }], deniedApps: [] }));
    await expect(SettingsStore.open(dir)).rejects.toThrow(SettingsError);
    await expect(SettingsStore.open(dir)).rejects.toThrow(/settings\.json, line 1: settings\.apps\[0\] is missing required field "name"/);
  });

  it('names the line and column of a syntax error and says how to reset', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'settings.json');
    await writeFile(file, '{\n  "demoMode": true,\n  "apps": [],\n  "deniedApps": [],\n}\n');
    const error = (await SettingsStore.open(dir).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `${file} is not valid JSON (line 5, column 1: a property name in double quotes was expected (a trailing comma?)). ` +
        `Fix it, or reset the settings: move the file away (mv '${file}' '${file}.broken') and start cutright again, which begins with the defaults (Demo mode on, no apps, none denied).`,
    );
    await writeFile(file, '');
    await expect(SettingsStore.open(dir)).rejects.toThrow(/not valid JSON \(line 1, column 1: the file is empty\)/);
  });

  it('names the line of a field that is wrong', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'settings.json');
    const apps = [app, { ...app, id: 'second', url: 'ftp://x' }];
    await writeFile(file, JSON.stringify({ demoMode: true, apps, deniedApps: [] }, null, 2));
    const error = (await SettingsStore.open(dir).catch((e: unknown) => e)) as Error;
    const line = JSON.stringify({ demoMode: true, apps, deniedApps: [] }, null, 2).split('\n').findIndex((l) => l.includes('ftp://x')) + 1;
    expect(error.message).toContain(`${file}, line ${line}: settings.apps[1].url "ftp://x" is not an http or https URL. Fix it, or reset the settings`);
  });

  it('keeps the old settings when a save is refused', async () => {
    const dir = await tempDir();
    const store = await SettingsStore.open(dir);
    await store.save({ demoMode: true, apps: [app], deniedApps: [] });
    await expect(store.save({ demoMode: true, apps: [{ ...app, url: 'nope' }], deniedApps: [] })).rejects.toThrow(SettingsError);
    expect(store.settings.apps).toEqual([app]);
    expect(JSON.parse(await readFile(store.file, 'utf8')).apps).toEqual([app]);
  });
});
