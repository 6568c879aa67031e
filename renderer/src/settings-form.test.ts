import { describe, expect, it } from 'vitest';
import { appIdError, deniedAppError, draftFromEntry, explainSettingsError, splitOrigins, validateAppDraft } from './settings-form.js';

const good = { id: 'com.example.notes', name: 'Notes', url: 'https://notes.example.com/app', origins: '' };

describe('validateAppDraft', () => {
  it('accepts a good entry, defaulting origins to the URL’s own', () => {
    expect(validateAppDraft(good, [])).toEqual({
      entry: { id: 'com.example.notes', name: 'Notes', url: 'https://notes.example.com/app', allowedOrigins: ['https://notes.example.com'] },
    });
  });

  it('trims, splits origins on lines, commas and spaces, and drops duplicates and trailing slashes', () => {
    const result = validateAppDraft(
      { ...good, id: '  com.example.notes ', origins: 'https://notes.example.com/\nhttps://auth.example.com:8443, https://notes.example.com' },
      [],
    );
    expect(result).toEqual({
      entry: {
        id: 'com.example.notes',
        name: 'Notes',
        url: 'https://notes.example.com/app',
        allowedOrigins: ['https://notes.example.com', 'https://auth.example.com:8443'],
      },
    });
  });

  it('names every wrong field', () => {
    const result = validateAppDraft({ id: 'has space', name: ' ', url: 'notes.example.com', origins: 'https://a.example.com/path ftp://b' }, []);
    expect('errors' in result && result.errors).toEqual({
      id: expect.stringContaining('only letters, digits, dots, dashes and underscores'),
      name: 'Enter the name people know the app by.',
      url: 'The URL must be a full http:// or https:// address.',
      origins: expect.stringContaining('Not an origin: https://a.example.com/path, ftp://b.'),
    });
  });

  it('asks for missing values and refuses a duplicate id', () => {
    const missing = validateAppDraft({ id: '', name: '', url: '', origins: '' }, []);
    expect('errors' in missing && missing.errors.id).toMatch(/Enter an app id/);
    expect('errors' in missing && missing.errors.url).toMatch(/Enter the address/);
    const dup = validateAppDraft(good, ['com.example.notes']);
    expect('errors' in dup && dup.errors).toEqual({ id: 'There is already an app with the id com.example.notes.' });
  });

  it('requires the URL’s own origin among the allowed origins, as the host does', () => {
    const result = validateAppDraft({ ...good, origins: 'https://auth.example.com' }, []);
    expect('errors' in result && result.errors).toEqual({ origins: 'The allowed origins must include the URL’s own origin, https://notes.example.com.' });
  });

  it('keeps to the host’s lengths', () => {
    const result = validateAppDraft({ ...good, name: 'n'.repeat(201), url: `https://notes.example.com/${'p'.repeat(2048)}` }, []);
    expect('errors' in result && result.errors).toEqual({ name: 'A name must be at most 200 characters.', url: 'A URL must be at most 2048 characters.' });
  });

  it('round-trips an entry through its draft', () => {
    const entry = { id: 'a.b', name: 'AB', url: 'http://127.0.0.1:5000/', allowedOrigins: ['http://127.0.0.1:5000', 'http://localhost:5000'] };
    expect(validateAppDraft(draftFromEntry(entry), [])).toEqual({ entry });
  });
});

describe('ids and origins', () => {
  it('appIdError', () => {
    expect(appIdError('app.orthiclabs.demo-fixture')).toBeNull();
    expect(appIdError('.leading')).toMatch(/must start with a letter or digit/);
    expect(appIdError('x'.repeat(128))).toBeNull();
    expect(appIdError('x'.repeat(129))).toMatch(/at most 128/);
  });
  it('deniedAppError', () => {
    expect(deniedAppError('com.a', [])).toBeNull();
    expect(deniedAppError(' com.a ', ['com.a'])).toBe('com.a is already denied.');
    expect(deniedAppError('', [])).toMatch(/Enter an app id/);
  });
  it('splitOrigins', () => {
    expect(splitOrigins(' https://a.example\n\n https://b.example , ')).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('explainSettingsError', () => {
  const settings = {
    demoMode: true,
    apps: [
      { id: 'a.one', name: 'One', url: 'https://one.example/', allowedOrigins: ['https://one.example'] },
      { id: 'app.orthiclabs.demo-fixture', name: 'Impostor', url: 'http://127.0.0.1:4998/', allowedOrigins: ['http://127.0.0.1:4998'] },
    ],
    deniedApps: ['bad id'],
  };

  it('names the app or denied id instead of the field path', () => {
    expect(explainSettingsError('settings.apps[1].id "app.orthiclabs.demo-fixture" is reserved', settings)).toBe(
      'App “Impostor”: its id "app.orthiclabs.demo-fixture" is reserved',
    );
    expect(explainSettingsError("settings.apps[0].allowedOrigins must include the app's own origin https://one.example", settings)).toBe(
      "App “One”: its allowed origins must include the app's own origin https://one.example",
    );
    expect(explainSettingsError('settings.apps[0] is missing required field "name"', settings)).toBe('App “One”: is missing required field "name"');
    expect(explainSettingsError('settings.deniedApps[0] must match pattern "^x$"', settings)).toBe('Denied app bad id: must match pattern "^x$"');
  });

  it('leaves other messages, and paths it cannot resolve, as they are', () => {
    expect(explainSettingsError('the data folder is read-only', settings)).toBe('the data folder is read-only');
    expect(explainSettingsError('settings.apps[7].id is wrong', settings)).toBe('settings.apps[7].id is wrong');
    expect(explainSettingsError('settings.apps[0].extra is wrong', settings)).toBe('settings.apps[0].extra is wrong');
  });
});
