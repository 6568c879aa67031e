// The settings form's checks, as pure functions: the form shows their messages beside the
// fields. The host checks everything again when it saves.
import type { AppEntry, Settings } from '../../src/ui-protocol/index.js';

/** What the person typed for one catalog entry; origins one a line. */
export interface AppDraft {
  id: string;
  name: string;
  url: string;
  origins: string;
}

export type AppDraftErrors = Partial<Record<keyof AppDraft, string>>;

export const emptyAppDraft: AppDraft = { id: '', name: '', url: '', origins: '' };

export function draftFromEntry(entry: AppEntry): AppDraft {
  return { id: entry.id, name: entry.name, url: entry.url, origins: entry.allowedOrigins.join('\n') };
}

/** Ids are app identifiers such as `com.example.notes`: letters, digits, `.`, `-`, `_`. */
const APP_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
// The host's limits (src/settings/settings-store.ts), so the form refuses what the host would.
const APP_ID_MAX = 128;
const NAME_MAX = 200;
const URL_MAX = 2048;

/** Checks an app id typed by the person; returns the message to show, or null. */
export function appIdError(id: string): string | null {
  const trimmed = id.trim();
  if (trimmed === '') return 'Enter an app id, for example com.example.notes.';
  if (!APP_ID.test(trimmed)) return 'An app id may hold only letters, digits, dots, dashes and underscores, and must start with a letter or digit.';
  if (trimmed.length > APP_ID_MAX) return `An app id must be at most ${APP_ID_MAX} characters.`;
  return null;
}

function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The origins typed one a line (or separated by spaces or commas), blanks dropped. */
export function splitOrigins(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Checks a catalog entry. `otherIds` are the ids of the other entries (an id must be unique).
 * Returns the entry to save, or the message for each field that is wrong.
 */
export function validateAppDraft(draft: AppDraft, otherIds: readonly string[]): { entry: AppEntry } | { errors: AppDraftErrors } {
  const errors: AppDraftErrors = {};
  const id = draft.id.trim();
  const idError = appIdError(id);
  if (idError) errors.id = idError;
  else if (otherIds.includes(id)) errors.id = `There is already an app with the id ${id}.`;

  const name = draft.name.trim();
  if (name === '') errors.name = 'Enter the name people know the app by.';
  else if (name.length > NAME_MAX) errors.name = `A name must be at most ${NAME_MAX} characters.`;

  const url = parseHttpUrl(draft.url.trim());
  if (draft.url.trim() === '') errors.url = 'Enter the address the demo opens, for example https://notes.example.com/.';
  else if (!url) errors.url = 'The URL must be a full http:// or https:// address.';
  else if (draft.url.trim().length > URL_MAX) errors.url = `A URL must be at most ${URL_MAX} characters.`;

  // Without origins listed, the app may stay on its own URL's origin.
  const typed = splitOrigins(draft.origins);
  const origins = typed.length === 0 && url ? [url.origin] : typed;
  const bad = origins.filter((o) => {
    const parsed = parseHttpUrl(o);
    return !parsed || parsed.origin !== o.replace(/\/$/, '');
  });
  if (bad.length > 0) {
    errors.origins = `Not an origin: ${bad.join(', ')}. An origin is a scheme, host and optional port, such as https://notes.example.com.`;
  } else if (url && !origins.some((o) => o.replace(/\/$/, '') === url.origin)) {
    // The host refuses an app that may not stay on its own page.
    errors.origins = `The allowed origins must include the URL’s own origin, ${url.origin}.`;
  }

  if (Object.keys(errors).length > 0) return { errors };
  return {
    entry: { id, name, url: url!.href, allowedOrigins: [...new Set(origins.map((o) => o.replace(/\/$/, '')))] },
  };
}

/** Checks an id to add to the denied apps; returns the message to show, or null. */
export function deniedAppError(id: string, denied: readonly string[]): string | null {
  const error = appIdError(id);
  if (error) return error;
  if (denied.includes(id.trim())) return `${id.trim()} is already denied.`;
  return null;
}

const FIELD_WORDS: Record<string, string> = { id: 'its id', name: 'its name', url: 'its URL', allowedOrigins: 'its allowed origins' };

/**
 * The host's refusal with its field path put in the person's terms: `settings.apps[1].id "x" is
 * reserved` becomes `App “Impostor”: its id "x" is reserved`. Messages it does not recognise
 * come back as they are.
 */
export function explainSettingsError(message: string, settings: Settings): string {
  const app = /^settings\.apps\[(\d+)\](?:\.(\w+))?\s*(.*)$/s.exec(message);
  if (app) {
    const entry = settings.apps[Number(app[1])];
    if (!entry) return message;
    const field = app[2] ? FIELD_WORDS[app[2]] : undefined;
    if (app[2] && !field) return message;
    return `App “${entry.name}”: ${field ? `${field} ` : ''}${app[3]}`;
  }
  const denied = /^settings\.deniedApps\[(\d+)\]\s*(.*)$/s.exec(message);
  if (denied) {
    const id = settings.deniedApps[Number(denied[1])];
    return id === undefined ? message : `Denied app ${id}: ${denied[2]}`;
  }
  return message;
}
