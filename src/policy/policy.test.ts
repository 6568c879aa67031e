import { describe, expect, it } from 'vitest';
import { decideCaptureState } from './capture-safe.js';
import { normalizeOrigin } from './origins.js';
import { isSecureAutocomplete, isSecureInputType, SECURE_AUTOCOMPLETE_TOKENS } from './secure-fields.js';

describe('secure fields', () => {
  it('recognises credential and card autocomplete tokens among others', () => {
    expect(isSecureAutocomplete('current-password')).toBe(true);
    expect(isSecureAutocomplete('section-pay billing CC-Number')).toBe(true);
    expect(isSecureAutocomplete('one-time-code')).toBe(true);
    expect(isSecureAutocomplete('cc-exp-month')).toBe(true);
    expect(isSecureAutocomplete('username')).toBe(false);
    expect(isSecureAutocomplete('off')).toBe(false);
    expect(isSecureAutocomplete('')).toBe(false);
    expect(isSecureAutocomplete(null)).toBe(false);
    expect(isSecureInputType('Password')).toBe(true);
    expect(isSecureInputType('text')).toBe(false);
    expect(Object.isFrozen(SECURE_AUTOCOMPLETE_TOKENS)).toBe(true);
  });
});

describe('capture-safe rule', () => {
  const allowedOrigins = ['http://127.0.0.1:4000'];
  const base = { attached: true, answered: true, origin: 'http://127.0.0.1:4000', allowedOrigins, declared: ['safe'] };

  it('is safe only when attached, answered, on an allowed origin and declared safe', () => {
    expect(decideCaptureState(base)).toEqual({ state: 'safe' });
    expect(decideCaptureState({ ...base, attached: false }).state).toBe('unknown');
    expect(decideCaptureState({ ...base, answered: false, failure: 'timeout' })).toMatchObject({ state: 'unknown', reason: expect.stringContaining('timeout') });
    expect(decideCaptureState({ ...base, origin: 'http://127.0.0.1:4001' })).toMatchObject({ state: 'unsafe', reason: expect.stringContaining('127.0.0.1:4001') });
    expect(decideCaptureState({ ...base, origin: 'null' }).state).toBe('unsafe');
    expect(decideCaptureState({ ...base, declared: [] }).state).toBe('unknown');
    expect(decideCaptureState({ ...base, declared: ['unsafe'] }).state).toBe('unsafe');
    expect(decideCaptureState({ ...base, declared: ['safe', 'unsafe'] }).state).toBe('unsafe');
    expect(decideCaptureState({ ...base, declared: ['Safe'] }).state).toBe('unknown');
    expect(decideCaptureState({ ...base, declared: ['safe '] }).state).toBe('unknown');
  });

  it('checks the origin before trusting the declaration', () => {
    expect(decideCaptureState({ ...base, origin: 'https://evil.example', declared: [] }).state).toBe('unsafe');
  });

  it('normalises allowed origins and refuses values without an origin', () => {
    expect(normalizeOrigin('http://127.0.0.1:5173/some/path?q')).toBe('http://127.0.0.1:5173');
    expect(() => normalizeOrigin('not a url')).toThrow(/"not a url" is not a URL/);
    expect(() => normalizeOrigin('about:blank')).toThrow(/opaque/);
  });
});
