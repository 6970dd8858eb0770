// The shapes of success answers, as zod schemas: /openapi.json describes every answer
// by them (api/openapi.ts), the web apps' types are generated from that document, and
// the tests check real answers against it, so none of the three can drift.

import { z } from 'zod';

const id = z.string();

/** Unix seconds, as every record's times are given. */
export const unixTime = z.number().int();

/** A JSON:API relationship to one record, or `null` when there is none. */
export const relation = (type: string) => z.object({ data: z.object({ id, type: z.literal(type) }).nullable() });

/**
 * One record as the API renders it (platform/http/render.ts): id, type, attributes, and its
 * relationships. Optional attributes are left out when absent, never null.
 */
export function resource<A extends z.ZodRawShape>(
  type: string,
  attributes: A,
  relationships?: Record<string, ReturnType<typeof relation>>,
) {
  return z.object({
    id,
    type: z.literal(type),
    attributes: z.object(attributes),
    ...(relationships ? { relationships: z.object(relationships) } : {}),
  });
}

/** `{ data: record }`: the answer with one record. */
export const one = <T extends z.ZodType>(record: T) => z.object({ data: record });

const pagination = z.object({
  meta: z.object({
    pagination: z.object({
      page: z.number().int().nullable().meta({ description: 'The page number; null for a page named by starting_after or ending_before' }),
      per_page: z.number().int(),
      has_more: z
        .boolean()
        .meta({ description: 'More records follow in the direction paged: after this page, or before it with ending_before' }),
    }),
  }),
});

/** `{ data: [records], meta: { pagination } }`: a page of a list (platform/http/render.ts listEnvelope). */
export const page = <T extends z.ZodType>(record: T) => z.object({ data: z.array(record) }).extend(pagination.shape);
