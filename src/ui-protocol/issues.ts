// Turns a schema's first complaint into one sentence naming the field: what crosses the bridge
// is `unknown` until a schema accepts it, and a refusal must say what was wrong.
import * as v from 'valibot';

function pathOf(issue: v.BaseIssue<unknown>, root: string): string {
  let where = root;
  for (const item of issue.path ?? []) {
    const key = item.key;
    where += typeof key === 'number' ? `[${key}]` : where === '' ? String(key) : `.${String(key)}`;
  }
  return where === '' ? 'the value' : where;
}

/**
 * One sentence for an issue: `<where> <message>` for the messages this protocol writes (they
 * read "must be ..."), and for valibot's own ("Invalid type: ...") a plain one from what was
 * expected and received.
 */
export function describeIssue(issue: v.BaseIssue<unknown>, root = ''): string {
  const where = pathOf(issue, root);
  if (!issue.message.startsWith('Invalid ')) return `${where} ${issue.message}`;
  if (issue.kind === 'schema' && issue.received === 'undefined' && (issue.type === 'object' || issue.type === 'strict_object')) return `${where} is missing`;
  if (issue.kind === 'schema' && issue.expected === 'never') return `${where} is not a known field`;
  if (issue.kind === 'schema') return `${where} must be ${issue.expected ?? 'something else'}, got ${issue.received}`;
  return `${where}: ${issue.message}`;
}

/** Parses `value` with `schema`, or throws `makeError(sentence)` for the first issue. */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, value: unknown, root: string, makeError: (message: string) => Error): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) return result.output;
  throw makeError(describeIssue(result.issues[0], root));
}
