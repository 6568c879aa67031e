// The contract's CLI argument rules: `cutright-ctl demo <tool>` takes one JSON object, or
// key=value pairs whose values are JSON when they parse as JSON, except the text keys.

/** A command line the CLI cannot read. It exits 2 with the message on stderr. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Keys whose value is always text, kept verbatim: `text=1e3` types `1e3`, `token=123` stays "123". */
export const TEXT_KEYS: ReadonlySet<string> = new Set(['token', 'ref', 'text', 'key', 'app', 'agent_name']);

const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An argument that starts like a JSON object or array (a key can start with neither). */
function looksLikeJsonValue(arg: string): boolean {
  const first = arg.trimStart()[0];
  return first === '{' || first === '[';
}

function parseJsonArgument(arg: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(arg);
  } catch (error) {
    throw new UsageError(`the argument is not valid JSON (${(error as Error).message}): ${arg}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new UsageError(`the JSON argument must be an object, got ${kind}`);
  }
  return value as Record<string, unknown>;
}

/**
 * A pair's value: verbatim for text keys; otherwise JSON when it parses as JSON, else the text
 * itself. A value that starts like a JSON object or array but does not parse is refused: it
 * was meant as JSON, and sending it as a string would only hide the typo.
 */
function pairValue(key: string, raw: string): unknown {
  if (TEXT_KEYS.has(key)) return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    if (looksLikeJsonValue(raw)) {
      throw new UsageError(`the value of ${key} looks like JSON but does not parse (${(error as Error).message}): ${raw}`);
    }
    return raw;
  }
}

/**
 * Reads a tool's arguments: nothing, one JSON object, or `key=value` pairs (split at the first
 * `=`). Throws UsageError for a bare word, a bad or empty key, a key given twice, a JSON
 * argument that is not an object or not valid, and a JSON object mixed with other arguments.
 * The result is a plain object with own properties only (`__proto__=x` is an ordinary key).
 */
export function parseToolArgs(args: string[]): Record<string, unknown> {
  if (args.some(looksLikeJsonValue)) {
    if (args.length > 1) {
      throw new UsageError('give either one JSON object or key=value pairs, not both (or several JSON arguments)');
    }
    return parseJsonArgument(args[0] as string);
  }

  const pairs = new Map<string, unknown>();
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq === -1) {
      let isJson = true;
      try {
        JSON.parse(arg);
      } catch {
        isJson = false;
      }
      if (isJson) parseJsonArgument(arg); // throws: a JSON number, string, true, false or null is not an object
      throw new UsageError(`"${arg}" is not a key=value pair: write ${arg}=<value>, or pass one JSON object`);
    }
    const key = arg.slice(0, eq);
    if (key === '') throw new UsageError(`"${arg}" has no key before "="`);
    if (!KEY_PATTERN.test(key)) {
      throw new UsageError(`"${key}" is not a valid key (letters, digits and _, not starting with a digit)`);
    }
    if (pairs.has(key)) throw new UsageError(`key "${key}" is given more than once`);
    pairs.set(key, pairValue(key, arg.slice(eq + 1)));
  }
  // fromEntries defines own properties, so a "__proto__" key cannot reach the prototype.
  return Object.fromEntries(pairs);
}
