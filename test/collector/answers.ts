// Every success answer a test receives is checked against /openapi.json: the document
// is made from the routes' own schemas, so a renderer that drifts from its schema fails
// whichever test first sees it, not a separate test that has to think of it.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { ROUTES } from '../../packages/collector/src/app.js';
import { openApiDocument } from '../../packages/collector/src/api/openapi.js';

interface Operation {
  pattern: RegExp;
  method: string;
  validate: ValidateFunction;
}

let operations: Operation[] | undefined;

function compile(): Operation[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const doc = openApiDocument(ROUTES);
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(
      ops as Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>,
    )) {
      const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1];
      const schema = success?.content?.['application/json']?.schema;
      if (!schema) continue;
      const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
      out.push({ pattern, method: method.toUpperCase(), validate: ajv.compile(schema) });
    }
  }
  return out;
}

/** Throws when a 2xx JSON answer of a documented operation does not match its schema. */
export function checkAnswer(method: string, url: string, status: number, body: unknown): void {
  if (status < 200 || status > 299 || body === undefined) return;
  const path = new URL(url, 'http://x').pathname;
  operations ??= compile();
  const op = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  if (!op || op.validate(body)) return;
  const problems = (op.validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
  throw new Error(`${method} ${path} answered ${status} with a body /openapi.json does not describe: ${problems}`);
}
