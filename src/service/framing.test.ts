import { describe, expect, it } from 'vitest';
import { encodeLine, LineDecoder } from './framing.js';

const lines = (events: ReturnType<LineDecoder['push']>) => events.map((e) => (e.kind === 'line' ? e.line : `oversize:${e.bytes}`));

describe('LineDecoder', () => {
  it('joins a line split across chunks', () => {
    const d = new LineDecoder();
    expect(lines(d.push(Buffer.from('{"a":')))).toEqual([]);
    expect(lines(d.push(Buffer.from('1}\n')))).toEqual(['{"a":1}']);
  });

  it('splits joined lines and keeps the remainder', () => {
    const d = new LineDecoder();
    expect(lines(d.push(Buffer.from('1\n2\n3')))).toEqual(['1', '2']);
    expect(lines(d.push(Buffer.from('\n')))).toEqual(['3']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const d = new LineDecoder();
    const bytes = Buffer.from('"né"\n');
    expect(lines(d.push(bytes.subarray(0, 3)))).toEqual([]);
    expect(lines(d.push(bytes.subarray(3)))).toEqual(['"né"']);
  });

  it('skips blank lines and strips CR', () => {
    const d = new LineDecoder();
    expect(lines(d.push(Buffer.from('\n\r\n{}\r\n')))).toEqual(['{}']);
  });

  it('reports a line over the limit once, then stops', () => {
    const d = new LineDecoder(10);
    expect(lines(d.push(Buffer.from('12345')))).toEqual([]);
    expect(lines(d.push(Buffer.from('678901\n{}\n')))).toEqual(['oversize:11']);
    expect(lines(d.push(Buffer.from('{}\n')))).toEqual([]);
  });

  it('accepts a line of exactly the limit', () => {
    const d = new LineDecoder(4);
    expect(lines(d.push(Buffer.from('1234\n')))).toEqual(['1234']);
  });

  it('encodes one message per line', () => {
    expect(encodeLine({ a: 'x\ny' })).toBe('{"a":"x\\ny"}\n');
  });
  it('holds an unfinished line as its bytes, however it was chunked, and lets a big buffer go after the line', () => {
    const d = new LineDecoder();
    for (let i = 0; i < 100_000; i += 1) d.push(Buffer.from('x'));
    expect(d.pendingBytes).toBe(100_000);
    expect(d.heldBytes).toBeLessThanOrEqual(2 * 100_000);
    expect(lines(d.push(Buffer.from('\n')))).toEqual(['x'.repeat(100_000)]);
    expect(d.heldBytes).toBe(0);
    expect(d.pendingBytes).toBe(0);
  });
});
