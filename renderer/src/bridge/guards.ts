// Checks for what arrives from the host. Every payload is `unknown` until checked here; a bad
// one is refused with an error naming what was wrong rather than rendered half-broken.
import type { BridgeCall, HostView, LiveSession, ConsentPrompt, WebBridgeServerMessage } from '../../../src/host/bridge.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function need(cond: boolean, what: string): void {
  if (!cond) throw new TypeError(`Invalid host view: ${what}`);
}

function checkConsent(value: unknown): ConsentPrompt | null {
  if (value === null) return null;
  need(isObj(value), 'consent must be an object or null');
  const c = value as Obj;
  for (const key of ['consentId', 'appId', 'appName', 'appUrl', 'agentName'] as const) {
    need(typeof c[key] === 'string', `consent.${key} must be a string`);
  }
  need(typeof c.requestedAt === 'number', 'consent.requestedAt must be a number');
  need(isObj(c.requester), 'consent.requester must be an object');
  const r = c.requester as Obj;
  need(r.pid === null || typeof r.pid === 'number', 'consent.requester.pid must be a number or null');
  for (const key of ['executable', 'otherUser', 'unknown'] as const) {
    need(r[key] === null || typeof r[key] === 'string', `consent.requester.${key} must be a string or null`);
  }
  need(typeof r.sharedWith === 'number', 'consent.requester.sharedWith must be a number');
  return value as ConsentPrompt;
}

function checkLive(value: unknown, i: number): LiveSession {
  need(isObj(value), `live[${i}] must be an object`);
  const s = value as Obj;
  for (const key of ['sessionId', 'appId', 'appName', 'agentName'] as const) {
    need(typeof s[key] === 'string', `live[${i}].${key} must be a string`);
  }
  need(['arming', 'armed', 'ended', 'killed'].includes(s.phase as string), `live[${i}].phase is not a session phase`);
  need(typeof s.startedAt === 'number', `live[${i}].startedAt must be a number`);
  need(typeof s.steps === 'number', `live[${i}].steps must be a number`);
  return value as LiveSession;
}

/** Returns `value` as a HostView, or throws a TypeError naming the first bad field. */
export function parseHostView(value: unknown): HostView {
  need(isObj(value), 'not an object');
  const v = value as Obj;
  need(typeof v.demoMode === 'boolean', 'demoMode must be a boolean');
  checkConsent(v.consent);
  need(typeof v.consentQueue === 'number', 'consentQueue must be a number');
  need(Array.isArray(v.live), 'live must be an array');
  (v.live as unknown[]).forEach(checkLive);
  need(typeof v.bundlesVersion === 'number', 'bundlesVersion must be a number');
  return value as HostView;
}

/** Parses one WebSocket message from the host, or throws a TypeError saying what was wrong. */
export function parseServerMessage(raw: string): WebBridgeServerMessage {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new TypeError('Bridge message is not JSON');
  }
  if (!isObj(value)) throw new TypeError('Bridge message is not a JSON object');
  if (value.type === 'view') return { type: 'view', view: parseHostView(value.view) };
  if (value.type === 'reply') {
    if (typeof value.id !== 'number') throw new TypeError('Bridge reply has no numeric id');
    if (value.ok === true) return { type: 'reply', id: value.id, ok: true, value: value.value };
    if (value.ok === false) {
      const error = value.error;
      const message = isObj(error) && typeof error.message === 'string' ? error.message : 'The host refused the call';
      return { type: 'reply', id: value.id, ok: false, error: { message } };
    }
    throw new TypeError('Bridge reply has no boolean ok');
  }
  throw new TypeError(`Bridge message has unknown type ${JSON.stringify(value.type)}`);
}

/** The shape each call's result must have (checked loosely: its top level). */
const RESULT_SHAPE: Record<BridgeCall, 'void' | 'array' | 'object'> = {
  answerConsent: 'void',
  kill: 'void',
  listBundles: 'array',
  getBundle: 'object',
  getSettings: 'object',
  saveSettings: 'object',
};

/** Throws when a call's result does not have the shape its method promises. */
export function checkCallResult(call: BridgeCall, value: unknown): unknown {
  const shape = RESULT_SHAPE[call];
  const ok = shape === 'void' ? true : shape === 'array' ? Array.isArray(value) : isObj(value);
  if (!ok) throw new TypeError(`The host answered ${call} with ${shape === 'array' ? 'something other than a list' : 'something other than an object'}`);
  return shape === 'void' ? undefined : value;
}
