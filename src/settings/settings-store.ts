// The person's settings, persisted as `settings.json` in the data folder and validated on
// load and on every save: Demo mode, the app catalog (web apps the agent may ask for) and
// the denied apps. A file that fails validation is never used silently: loading it throws an
// error naming the file and the field.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { mkdir, readFile, rename, open } from 'node:fs/promises';
import path from 'node:path';
import { describeSchemaError } from '../contract/validate.js';
import type { AppEntry, Settings } from './settings.js';

export type { AppEntry, Settings };

const appIdPattern = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';

const settingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['demoMode', 'apps', 'deniedApps'],
  properties: {
    demoMode: { type: 'boolean' },
    apps: {
      type: 'array',
      maxItems: 500,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'url', 'allowedOrigins'],
        properties: {
          id: { type: 'string', pattern: appIdPattern },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          url: { type: 'string', minLength: 1, maxLength: 2048 },
          allowedOrigins: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 50 },
        },
      },
    },
    deniedApps: { type: 'array', maxItems: 500, items: { type: 'string', pattern: appIdPattern } },
    recording: {
      type: 'object',
      additionalProperties: false,
      required: ['maxSessionBytes', 'maxBytesPerSecond'],
      properties: {
        // At least one frame of a large screen (1 MiB); at most 1 TiB a session.
        maxSessionBytes: { type: 'integer', minimum: 1048576, maximum: 1099511627776 },
        maxBytesPerSecond: { type: 'integer', minimum: 1048576, maximum: 1073741824 },
      },
    },
  },
} as const;

const ajv = new Ajv2020({ allErrors: false, strict: true });
const validateShape = ajv.compile(settingsSchema);

export const DEFAULT_SETTINGS: Settings = { demoMode: true, apps: [], deniedApps: [] };

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

/**
 * Checks settings beyond their shape: ids unique, URLs http(s), origins bare origins, and the
 * app's own URL inside its allowed origins. Returns the settings with origins normalized.
 */
export function validateSettings(value: unknown, reservedIds: readonly string[] = []): Settings {
  if (!validateShape(value)) {
    const first = validateShape.errors?.[0];
    throw new SettingsError(first ? describeSchemaError(first, 'settings') : 'settings are invalid');
  }
  const settings = value as Settings;
  const seen = new Set<string>();
  const apps = settings.apps.map((app, index) => {
    const where = `settings.apps[${index}]`;
    if (seen.has(app.id)) throw new SettingsError(`${where}.id "${app.id}" is listed twice`);
    if (reservedIds.includes(app.id)) throw new SettingsError(`${where}.id "${app.id}" is reserved`);
    seen.add(app.id);
    const appOrigin = originOf(app.url);
    if (!appOrigin) throw new SettingsError(`${where}.url "${app.url}" is not an http or https URL`);
    const allowedOrigins = app.allowedOrigins.map((origin, i) => {
      const normalized = originOf(origin);
      if (!normalized || normalized !== origin.replace(/\/$/, '')) {
        throw new SettingsError(`${where}.allowedOrigins[${i}] "${origin}" is not an origin like https://example.com`);
      }
      return normalized;
    });
    if (!allowedOrigins.includes(appOrigin)) {
      throw new SettingsError(`${where}.allowedOrigins must include the app's own origin ${appOrigin}`);
    }
    return { ...app, allowedOrigins };
  });
  return {
    demoMode: settings.demoMode,
    apps,
    deniedApps: [...new Set(settings.deniedApps)],
    ...(settings.recording ? { recording: { ...settings.recording } } : {}),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class SettingsStore {
  private current: Settings;

  private constructor(
    readonly file: string,
    initial: Settings,
    private readonly reservedIds: readonly string[],
  ) {
    this.current = deepFreeze(structuredClone(initial));
  }

  /** Loads `<dataDir>/settings.json`, or the defaults when there is none yet. */
  static async open(dataDir: string, reservedIds: readonly string[] = []): Promise<SettingsStore> {
    const file = path.join(dataDir, 'settings.json');
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text === undefined) return new SettingsStore(file, DEFAULT_SETTINGS, reservedIds);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new SettingsError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    try {
      return new SettingsStore(file, validateSettings(parsed, reservedIds), reservedIds);
    } catch (error) {
      throw new SettingsError(`${file}: ${(error as Error).message}`);
    }
  }

  /** The current settings, frozen: read on every request, so it is shared, never copied. */
  get settings(): Readonly<Settings> {
    return this.current;
  }

  /** Validates and writes atomically (write aside, fsync, rename). Returns what was saved. */
  async save(value: unknown): Promise<Settings> {
    const next = validateSettings(value, this.reservedIds);
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.tmp`;
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(next, null, 2) + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.file);
    this.current = deepFreeze(next);
    return structuredClone(next);
  }
}
