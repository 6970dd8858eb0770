// Request bodies are checked by zod schemas (the same ones /openapi.json is made from).
// Each field's first problem becomes one problem naming that field (platform/http/errors.ts makes
// it a JSON pointer).

import type { z } from 'zod';
import { fail, ServiceError, type ErrorCode, type Problem } from '../errors.js';

type Issue = z.core.$ZodIssue;

const NOUN: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function bound(issue: { origin?: string }, word: string, n: number | bigint): string {
  if (issue.origin === 'string') return n === 1 && word === 'at least' ? 'not be empty' : `be ${word} ${n} characters`;
  if (issue.origin === 'array') return `have ${word} ${n} items`;
  return `be ${word} ${n}`;
}

function describe(issue: Issue): { code: ErrorCode; detail: string } {
  const name = issue.path.join('.') || 'the body';
  // Whatever the schema, nothing at all where a value is required is a missing field.
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && (issue as { input?: unknown }).input === undefined) {
    return { code: 'missing_field', detail: `${name} is required` };
  }
  switch (issue.code) {
    case 'invalid_type':
      return { code: 'invalid_field', detail: `${name} must be ${NOUN[issue.expected] ?? issue.expected}` };
    case 'too_small':
      return { code: 'invalid_field', detail: `${name} must ${bound(issue, 'at least', issue.minimum)}` };
    case 'too_big':
      return { code: 'invalid_field', detail: `${name} must ${bound(issue, 'at most', issue.maximum)}` };
    case 'invalid_value':
      return { code: 'invalid_field', detail: `${name} must be one of: ${issue.values.join(', ')}` };
    case 'custom': {
      const code = (issue.params as { code?: ErrorCode } | undefined)?.code ?? 'invalid_field';
      return { code, detail: `${name} ${issue.message}` };
    }
    default:
      return { code: 'invalid_field', detail: `${name} ${issue.message}` };
  }
}

/** The field path of the first string holding U+0000, which PostgreSQL cannot store in text. */
function nulAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = nulAt(inner, `${path ? `${path}/` : ''}${pointerToken(key)}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

const MAX_PROBLEMS = 20;

/** A key as one JSON pointer segment (RFC 6901): `~` and `/` escaped. */
const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A query string checked like a body: each parameter given once, then the schema; a
 * problem names its parameter (400), as a list's filters do.
 */
export function validateQuery<T>(schema: z.ZodType<T>, querystring: string): T {
  const values: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(querystring)) {
    if (name in values) throw fail('invalid_parameter', `${name} is given twice`, { parameter: name });
    values[name] = value;
  }
  try {
    return validateBody(schema, values);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    throw new ServiceError(
      err.problems.map((p) => ({
        code: p.code === 'unknown_field' ? 'unknown_parameter' : 'invalid_parameter',
        detail: p.detail.replace(' is not a field here; the fields are ', ' is not a parameter here; the parameters are '),
        parameter: p.field ?? '',
      })),
    );
  }
}

export function validateBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) {
    // Checked on what the route keeps, and refused on every engine alike, so that SQLite
    // does not store what PostgreSQL cannot.
    const field = nulAt(result.data);
    if (field !== undefined) throw fail('invalid_field', 'text may not contain the NUL character (U+0000)', { field });
    return result.data;
  }
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const add = (path: PropertyKey[], code: ErrorCode, detail: string) => {
    const field = path.map(String).join('/');
    if (seen.has(field)) return;
    seen.add(field);
    problems.push({ code, detail, field });
  };
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // A strict body (management writes): a typo such as "paypal" for "paypal_email" must
      // not be answered 201 with the value silently dropped.
      const known = Object.keys((schema as unknown as { shape?: object }).shape ?? {}).join(', ');
      // A few are enough to fix a request; a body of a thousand made-up keys gets no
      // answer a hundred times its size.
      for (const key of issue.keys.slice(0, MAX_PROBLEMS)) {
        add([...issue.path, pointerToken(key)], 'unknown_field', `${key} is not a field here${known ? `; the fields are ${known}` : ''}`);
      }
      continue;
    }
    const { code, detail } = describe(issue);
    add(issue.path, code, detail);
  }
  throw new ServiceError(problems);
}
