// The person's settings, persisted as `settings.json` in the data folder and validated on
// load and on every save: Demo mode, the app catalog (web apps the agent may ask for) and
// the denied apps. A file that fails validation is never used silently: loading it throws an
// error naming the file, the line and the field, and how to reset it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { findNodeAtLocation, parse as parseJsonc, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { mkdir, readFile, rename, open } from 'node:fs/promises';
import path from 'node:path';
import { describeSchemaError } from '../contract/validate.js';
import { originOf } from '../policy/origins.js';
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
  /** Where in the settings the problem is (`['apps', 1, 'id']`), when it is one field. */
  readonly path: ReadonlyArray<string | number> | undefined;
  constructor(message: string, path?: ReadonlyArray<string | number>) {
    super(message);
    this.path = path;
  }
}

/** Ajv's `/apps/1/id` as `['apps', 1, 'id']`. */
function pathOfPointer(pointer: string): Array<string | number> {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Line and column (from 1) of a character offset in `text`. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

const PARSE_WORDS: Record<string, string> = {
  InvalidSymbol: 'a character that does not belong in JSON',
  PropertyNameExpected: 'a property name in double quotes was expected (a trailing comma?)',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: 'a closing } was expected',
  CloseBracketExpected: 'a closing ] was expected',
  EndOfFileExpected: 'the file should end here',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfComment: 'a comment is not closed',
};

function resetHint(file: string): string {
  return `Fix it, or reset the settings: move the file away (mv '${file}' '${file}.broken') and start cutright again, which begins with the defaults (Demo mode on, no apps, none denied).`;
}

/** Why `text` is not JSON, at which line and column; null when it is JSON. */
function jsonProblem(text: string): string | null {
  if (text.trim() === '') return 'line 1, column 1: the file is empty';
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return null;
  const code = printParseErrorCode(first.error);
  const { line, column } = lineAndColumn(text, first.offset);
  return `line ${line}, column ${column}: ${PARSE_WORDS[code] ?? code}`;
}

/**
 * Checks settings beyond their shape: ids unique, URLs http(s), origins bare origins, and the
 * app's own URL inside its allowed origins. Returns the settings with origins normalized.
 */
export function validateSettings(value: unknown, reservedIds: readonly string[] = []): Settings {
  if (!validateShape(value)) {
    const first = validateShape.errors?.[0];
    throw new SettingsError(first ? describeSchemaError(first, 'settings') : 'settings are invalid', first ? pathOfPointer(first.instancePath) : undefined);
  }
  const settings = value as Settings;
  const seen = new Set<string>();
  const apps = settings.apps.map((app, index) => {
    const where = `settings.apps[${index}]`;
    if (seen.has(app.id)) throw new SettingsError(`${where}.id "${app.id}" is listed twice`, ['apps', index, 'id']);
    if (reservedIds.includes(app.id)) throw new SettingsError(`${where}.id "${app.id}" is reserved`, ['apps', index, 'id']);
    seen.add(app.id);
    const appOrigin = originOf(app.url, { httpOnly: true });
    if (!appOrigin) throw new SettingsError(`${where}.url "${app.url}" is not an http or https URL`, ['apps', index, 'url']);
    const allowedOrigins = app.allowedOrigins.map((origin, i) => {
      const normalized = originOf(origin, { httpOnly: true });
      if (!normalized || normalized !== origin.replace(/\/$/, '')) {
        throw new SettingsError(`${where}.allowedOrigins[${i}] "${origin}" is not an origin like https://example.com`, ['apps', index, 'allowedOrigins', i]);
      }
      return normalized;
    });
    if (!allowedOrigins.includes(appOrigin)) {
      throw new SettingsError(`${where}.allowedOrigins must include the app's own origin ${appOrigin}`, ['apps', index, 'allowedOrigins']);
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
      const where = jsonProblem(text) ?? (error as Error).message;
      throw new SettingsError(`${file} is not valid JSON (${where}). ${resetHint(file)}`);
    }
    try {
      return new SettingsStore(file, validateSettings(parsed, reservedIds), reservedIds);
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      const tree = error.path ? parseTree(text) : undefined;
      const node = tree && error.path ? (findNodeAtLocation(tree, [...error.path]) ?? findNodeAtLocation(tree, error.path.slice(0, -1))) : undefined;
      const line = node ? `, line ${lineAndColumn(text, node.offset).line}` : '';
      throw new SettingsError(`${file}${line}: ${error.message}. ${resetHint(file)}`, error.path);
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
