// The bridge table's host side: names, roles and arguments are checked before anything
// reaches the implementation, with errors that say what was wrong.
import { describe, expect, it } from 'vitest';
import { BRIDGE_CALLS, BRIDGE_TABLE, WINDOW_ROLES, callsOf, type BridgeCalls } from './calls.js';
import { BridgeArgumentError, BridgeRoleError, checkBridgeArgs, dispatchBridgeCall, isBridgeRefusal } from './dispatch.js';

const settings = { demoMode: true, apps: [{ id: 'a', name: 'A', url: 'https://a.example/', allowedOrigins: ['https://a.example'] }], deniedApps: [] };

/** An implementation that records what reached it. */
function recorder() {
  const reached: Array<[string, unknown[]]> = [];
  const record =
    (name: string, result: unknown) =>
    async (...args: unknown[]) => {
      reached.push([name, args]);
      return result;
    };
  const bridge = {
    answerConsent: record('answerConsent', undefined),
    kill: record('kill', undefined),
    listBundles: record('listBundles', []),
    getBundle: record('getBundle', { bundle: true }),
    getSettings: record('getSettings', settings),
    saveSettings: record('saveSettings', settings),
  } as unknown as BridgeCalls;
  return { bridge, reached };
}

const page = { name: 'the web page', roles: WINDOW_ROLES };

describe('dispatchBridgeCall', () => {
  it('carries each call with its checked arguments, and answers nothing as null', async () => {
    const { bridge, reached } = recorder();
    await expect(dispatchBridgeCall(bridge, page, 'answerConsent', ['c-1', 'deny'])).resolves.toBeNull();
    await expect(dispatchBridgeCall(bridge, page, 'kill', ['s-1'])).resolves.toBeNull();
    await expect(dispatchBridgeCall(bridge, page, 'listBundles', [])).resolves.toEqual([]);
    await expect(dispatchBridgeCall(bridge, page, 'saveSettings', [settings])).resolves.toEqual(settings);
    expect(reached).toEqual([
      ['answerConsent', ['c-1', 'deny']],
      ['kill', ['s-1']],
      ['listBundles', []],
      ['saveSettings', [settings]],
    ]);
  });

  it.each([
    ['an unknown call', 'eval', [], /unknown bridge call "eval"/],
    ['a name from the prototype', '__proto__', [], /unknown bridge call/],
    ['arguments that are not an array', 'kill', 's-1', /kill: arguments must be an array/],
    ['too few arguments', 'getBundle', [], /getBundle takes 1 argument\(s\), got 0/],
    ['too many arguments', 'listBundles', [1], /listBundles takes 0 argument\(s\), got 1/],
    ['a bad answer', 'answerConsent', ['c', 'maybe'], /^answerConsent: answer must be "allow" or "deny"$/],
    ['an id that is not a string', 'kill', [42], /^kill: sessionId must be a string$/],
    ['an empty id', 'getBundle', [''], /^getBundle: bundleId must not be empty$/],
    ['a long id', 'getBundle', ['b'.repeat(201)], /^getBundle: bundleId must be at most 200 characters$/],
    ['settings of the wrong shape', 'saveSettings', [{ demoMode: 'no' }], /^saveSettings: settings\.demoMode must be boolean, got "no"$/],
    ['settings with a field missing', 'saveSettings', [{ demoMode: true, apps: [] }], /^saveSettings: settings\.deniedApps is missing$/],
    ['settings with an unknown field', 'saveSettings', [{ ...settings, extra: 1 }], /^saveSettings: settings\.extra is not a known field$/],
    ['a bad app in the catalog', 'saveSettings', [{ ...settings, apps: [{ ...settings.apps[0], url: 7 }] }], /^saveSettings: settings\.apps\[0\]\.url must be string, got 7$/],
  ])('refuses %s before it reaches the host', async (_what, call, args, message) => {
    const { bridge, reached } = recorder();
    const error = await dispatchBridgeCall(bridge, page, call, args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeArgumentError);
    expect((error as Error).message).toMatch(message);
    expect(isBridgeRefusal(error)).toBe(true);
    expect(reached).toEqual([]);
  });

  it('lets a window make only the calls its role may, before looking at the arguments', async () => {
    const { bridge, reached } = recorder();
    const consent = { name: 'the consent window', roles: ['consent'] as const };
    await expect(dispatchBridgeCall(bridge, consent, 'getSettings', [])).rejects.toThrow(BridgeRoleError);
    await expect(dispatchBridgeCall(bridge, consent, 'saveSettings', ['not even settings'])).rejects.toThrow(/^the consent window may not call saveSettings$/);
    await expect(dispatchBridgeCall(bridge, consent, 'answerConsent', ['c-1', 'allow'])).resolves.toBeNull();
    expect(reached).toEqual([['answerConsent', ['c-1', 'allow']]]);
  });

  it('passes the host’s own failures through as they are', async () => {
    const failing = { ...recorder().bridge, kill: async () => Promise.reject(new Error('disk full')) } as BridgeCalls;
    const error = await dispatchBridgeCall(failing, page, 'kill', ['s-1']).catch((e: unknown) => e);
    expect((error as Error).message).toBe('disk full');
    expect(isBridgeRefusal(error)).toBe(false);
  });
});

describe('the bridge table', () => {
  it('gives every call at least one window, and each small window only its own call', () => {
    for (const call of BRIDGE_CALLS) expect(BRIDGE_TABLE[call].roles.length).toBeGreaterThan(0);
    expect(callsOf('main')).toEqual(BRIDGE_CALLS);
    expect(callsOf('consent')).toEqual(['answerConsent', 'denyAllWaiting']);
    expect(callsOf('kill')).toEqual(['kill', 'killAll']);
  });

  it('checkBridgeArgs returns the arguments as the implementation gets them', () => {
    expect(checkBridgeArgs('answerConsent', ['c', 'allow'])).toEqual(['c', 'allow']);
    expect(checkBridgeArgs('listBundles', [])).toEqual([]);
  });
});
