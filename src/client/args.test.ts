import { describe, expect, it } from 'vitest';
import { UsageError, parseToolArgs } from './args.js';

function usageError(args: string[]): UsageError {
  try {
    parseToolArgs(args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`parseToolArgs(${JSON.stringify(args)}) did not throw`);
}

describe('parseToolArgs', () => {
  it('reads no arguments as an empty object', () => {
    expect(parseToolArgs([])).toEqual({});
  });

  it('reads one JSON object as the params', () => {
    const steps = [{ ref: 'e1', op: 'click' }];
    expect(parseToolArgs([JSON.stringify({ token: 't', steps })])).toEqual({ token: 't', steps });
  });

  it('keeps the text keys verbatim, even when they look like JSON', () => {
    expect(parseToolArgs(['text=1e3', 'token=123', 'ref=null', 'key=true', 'app=[x]', 'agent_name={"a":1}'])).toEqual({
      text: '1e3',
      token: '123',
      ref: 'null',
      key: 'true',
      app: '[x]',
      agent_name: '{"a":1}',
    });
  });

  it('parses other values as JSON when they are JSON', () => {
    expect(parseToolArgs(['steps=[{"ref":"e1","op":"click"}]', 'n=42', 'flag=false', 'nothing=null'])).toEqual({
      steps: [{ ref: 'e1', op: 'click' }],
      n: 42,
      flag: false,
      nothing: null,
    });
  });

  it('keeps other values that are not JSON as strings', () => {
    expect(parseToolArgs(['op=click', 'empty='])).toEqual({ op: 'click', empty: '' });
  });

  it('splits a pair at the first "=" only', () => {
    expect(parseToolArgs(['text=a=b'])).toEqual({ text: 'a=b' });
  });

  it('refuses a bare word, saying how to write a pair', () => {
    expect(usageError(['click']).message).toBe('"click" is not a key=value pair: write click=<value>, or pass one JSON object');
  });

  it('refuses a key given twice', () => {
    expect(usageError(['text=a', 'text=b']).message).toBe('key "text" is given more than once');
  });

  it('refuses a JSON object mixed with pairs', () => {
    expect(usageError(['{"token":"t"}', 'ref=e1']).message).toMatch(/either one JSON object or key=value pairs/);
    expect(usageError(['ref=e1', '{"token":"t"}']).message).toMatch(/either one JSON object or key=value pairs/);
  });

  it('refuses a JSON argument that is not an object', () => {
    expect(usageError(['[1,2]']).message).toBe('the JSON argument must be an object, got an array');
    expect(usageError(['42']).message).toBe('the JSON argument must be an object, got a number');
    expect(usageError(['null']).message).toBe('the JSON argument must be an object, got null');
  });

  it('refuses an argument that starts like JSON but is not valid JSON', () => {
    expect(usageError(['{token: t}']).message).toMatch(/^the argument is not valid JSON/);
  });

  it('refuses a non-text value that starts like JSON but does not parse, instead of sending a string', () => {
    expect(usageError(['steps=[{ref:e1}]']).message).toMatch(/^the value of steps looks like JSON but does not parse/);
  });

  it('refuses an empty or malformed key', () => {
    expect(usageError(['=x']).message).toBe('"=x" has no key before "="');
    expect(usageError(['my-key=x']).message).toMatch(/"my-key" is not a valid key/);
  });

  it('keeps "__proto__" an ordinary own key', () => {
    const params = parseToolArgs(['__proto__={"polluted":true}']);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.keys(params)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
