import { describe, expect, it } from 'vitest';
import { layoutFromLocation } from './layout.js';

const at = (search: string, hash = '') => layoutFromLocation({ search, hash });

describe('layoutFromLocation', () => {
  it('reads ?window= (the web shell and older Electron URLs)', () => {
    expect(at('?window=consent')).toBe('consent');
    expect(at('?window=kill')).toBe('kill');
    expect(at('?window=main')).toBe('main');
  });

  it('reads the hash (Electron loads its windows by hash)', () => {
    expect(at('', '#consent')).toBe('consent');
    expect(at('', '#kill')).toBe('kill');
    expect(at('', '#main')).toBe('main');
    expect(at('', '#/kill')).toBe('kill');
    expect(at('', '#window=consent')).toBe('consent');
    expect(at('', '#KILL')).toBe('kill');
  });

  it('lets the query win over the hash', () => {
    expect(at('?window=kill', '#consent')).toBe('kill');
  });

  it('shows the whole UI for anything unknown or absent', () => {
    expect(at('')).toBe('main');
    expect(at('?window=settings')).toBe('main');
    expect(at('', '#sessions')).toBe('main');
    expect(at('?other=1', '#')).toBe('main');
  });
});
