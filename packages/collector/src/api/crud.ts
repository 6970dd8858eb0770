// The read routes every resource has: one record by id, and a filtered page.

import type { z } from 'zod';
import { found } from '../platform/errors.js';
import type { Queryable, Tx } from '../platform/db/db.js';
import type { FieldFilter, Page, PageRequest } from '../platform/db/list.js';
import type { ListSpec } from '../platform/http/list-query.js';
import { listEnvelope } from '../platform/http/render.js';
import type { Resource } from '../platform/resource.js';
import { route, type RouteInput } from './route.js';
import { one, page } from '../platform/http/schemas.js';

export interface ReadSpec<T> {
  /** Plural, as in the path: "partners". */
  plural: string;
  /** The `type` of the records: "partner". */
  type: string;
  get(db: Queryable, programId: string, id: string): Promise<T | undefined>;
  list(db: Queryable, programId: string, filters: readonly FieldFilter[], page: PageRequest): Promise<Page<T>>;
  render(row: T, input: RouteInput<unknown>): Resource;
  filters: ListSpec;
  /** The rendered record's shape, for /openapi.json. */
  schema: z.ZodType;
}

export function readRoutes<T>(spec: ReadSpec<T>) {
  return [
    route({
      method: 'get',
      path: `/v1/${spec.plural}`,
      summary: `List ${spec.plural}, newest first`,
      access: 'secret',
      list: spec.filters,
      status: 200,
      response: page(spec.schema),
      async handle(input) {
        const page = await spec.list(input.db, input.program.id, input.list.filters, input.list.page);
        return { status: 200, body: listEnvelope(page, input.list.page, (row) => spec.render(row, input)) };
      },
    }),
    route({
      method: 'get',
      path: `/v1/${spec.plural}/:id`,
      summary: `Fetch one ${spec.type}`,
      access: 'secret',
      status: 200,
      response: one(spec.schema),
      async handle(input) {
        const id = input.params.id ?? '';
        const row = found(await spec.get(input.db, input.program.id, id), spec.type, id);
        return { status: 200, body: { data: spec.render(row, input) } };
      },
    }),
  ];
}

/** DELETE of one record by id, in a transaction: 204, or the service's 404 and 409. */
export function deleteRoute(path: string, summary: string, remove: (tx: Tx, programId: string, id: string) => Promise<void>) {
  return route({
    method: 'delete',
    path,
    summary,
    access: 'secret',
    status: 204,
    async handle({ db, program, params }) {
      await db.transaction((tx) => remove(tx, program.id, params.id ?? ''));
      return { status: 204 };
    },
  });
}
