// /openapi.json, made from the route table: the body schemas that validate requests and
// the filters that parse list queries. Nothing here is written twice by hand.

import { z } from 'zod';
import { ERROR_CODES } from '../platform/errors.js';
import { PAGE_MAX, PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../platform/http/list-query.js';
import type { Route } from './route.js';

const ERROR = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['status', 'code', 'title', 'detail'],
        properties: {
          status: { type: 'string' },
          code: { type: 'string', enum: ERROR_CODES },
          title: { type: 'string' },
          detail: { type: 'string' },
          source: {
            type: 'object',
            properties: { pointer: { type: 'string' }, parameter: { type: 'string' } },
          },
          meta: { type: 'object' },
        },
      },
    },
  },
};

const PAGING = [
  {
    name: 'page',
    in: 'query',
    description: `Numbered pages reach ${PAGE_MAX} rows deep (page × per_page); deeper, use starting_after`,
    schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: 1 },
  },
  {
    name: 'starting_after',
    in: 'query',
    description: "A record's id: the page of the records after it, in the list's order (newest first), with the same filters",
    schema: { type: 'string' },
  },
  {
    name: 'ending_before',
    in: 'query',
    description: "A record's id: the page of the records before it; has_more then says whether more come before",
    schema: { type: 'string' },
  },
  {
    name: 'per_page',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
  },
];

const SECURITY: Record<Route['access'], object[]> = {
  secret: [{ secretToken: [] }, { session: [] }],
  publishable: [{ publishableToken: [] }, { secretToken: [] }],
  session: [{ session: [] }],
  partner: [{ partnerSession: [] }],
  embed: [{ embedSession: [] }],
  public: [],
};

function operation(r: Route) {
  const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    // Records are named by UUIDs; a page by its slug, a webhook by its endpoint id.
    schema: m[1] === 'id' ? { type: 'string', format: 'uuid' } : { type: 'string' },
  }));
  const listParams = r.list
    ? [
        ...Object.entries(r.list).map(([name, f]) => ({
          name,
          in: 'query',
          description: f.describe,
          schema: { type: 'string' },
        })),
        ...PAGING,
      ]
    : [];
  const query = r.query
    ? (z.toJSONSchema(r.query, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, { description?: string }>;
        required?: string[];
      })
    : {};
  const queryParams = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    ...(query.required?.includes(name) ? { required: true } : {}),
    ...(schema.description ? { description: schema.description } : {}),
    schema,
  }));
  const { $schema: _, ...bodySchema } = r.body
    ? (z.toJSONSchema(r.body, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>)
    : {};
  const { $schema: __, ...answerSchema } = r.response
    ? (z.toJSONSchema(r.response, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>)
    : {};
  return {
    summary: r.summary,
    security: SECURITY[r.access],
    ...(pathParams.length + listParams.length + queryParams.length > 0
      ? { parameters: [...pathParams, ...listParams, ...queryParams] }
      : {}),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: bodySchema } } } } : {}),
    // A webhook's body is another service's event, checked by its signature, not by a schema of ours.
    ...(r.webhookBodyLimit
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { type: 'object', description: `At most ${r.webhookBodyLimit} bytes, signed by the sender` } },
            },
          },
        }
      : {}),
    ...(r.uploadLimit
      ? {
          requestBody: {
            required: true,
            content: {
              'application/octet-stream': {
                schema: {
                  type: 'string',
                  format: 'binary',
                  description: `The file itself, at most ${r.uploadLimit} bytes; its type is read from its bytes`,
                },
              },
            },
          },
        }
      : {}),
    responses: {
      [String(r.status)]: {
        description: 'Success',
        ...(r.response ? { content: { 'application/json': { schema: answerSchema } } } : {}),
        ...(r.produces ? { content: { [r.produces]: { schema: { type: 'string' } } } } : {}),
      },
      default: {
        description: 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

export function openApiDocument(routes: readonly Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [r.method]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Tally collector API', version: '1.0.0' },
    paths,
    components: {
      securitySchemes: {
        secretToken: { type: 'http', scheme: 'bearer', description: 'tly_sec_…: every /v1 route' },
        publishableToken: { type: 'http', scheme: 'bearer', description: 'tly_pub_…: /v1/tracking only' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'tally_session',
          description:
            "the dashboard's sign-in (POST /v1/auth/sign_in): a secret token's rights for the session's program; changes need a same-origin Origin header",
        },
        partnerSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'tally_partner',
          description:
            "the partner portal's sign-in (POST /v1/portal/auth/sign_in): the partner's own partnerships only; changes need a same-origin Origin header",
        },
        embedSession: {
          type: 'http',
          scheme: 'bearer',
          description:
            "ems_…, the embedded portal's session (POST /v1/embed/sessions): one partner's link, codes, figures and payout settings only",
        },
      },
      schemas: { Error: ERROR },
    },
  };
}
