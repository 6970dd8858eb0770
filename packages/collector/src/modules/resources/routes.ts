// Brand resources through the API (the owner: upload, copy, order, delete), the portal and
// the embed (the program's partners: list and download). Another program's resource, or a
// partner's who is not accepted in the program, answers 404 as an unknown id does.

import { z } from 'zod';
import { route, type RouteInput } from '../../api/route.js';
import { reachedPartnership } from '../../flows/portal.js';
import { fail } from '../../platform/errors.js';
import { one } from '../../platform/http/schemas.js';
import type { EmbedSessionRow } from '../embed/repo.js';
import type { AccountRow } from '../portal/repo.js';
import { fileReply } from './http.js';
import type { ResourceRow } from './model.js';
import { renderResource } from './present.js';
import { resourceList, resourceSchema } from './schemas.js';
import { addCopy, addFile, getResource, listResources, MAX_FILE_BYTES, removeResource, reorder, resourceFile, retitle } from './service.js';

const title = z.string().trim().min(1).max(200);
const listBody = (rows: ResourceRow[]) => ({ data: rows.map(renderResource) });

/** The program of the partner's accepted partnership (the path's :id); 404 otherwise. */
async function partnerProgram(input: RouteInput<unknown>): Promise<string> {
  const p = await reachedPartnership(input.db, (input.account as AccountRow).id, input.params.id ?? '');
  if (p.state !== 'accepted') throw fail('not_found', `no partnership ${input.params.id ?? ''}`);
  return p.program_id;
}

const embedProgram = (input: RouteInput<unknown>): string => (input.embed as EmbedSessionRow).program_id;

const download = async (input: RouteInput<unknown>, programId: string, id: string) =>
  fileReply(await resourceFile(input.db, programId, id), { ifNoneMatch: input.header('if-none-match'), disposition: 'attachment' });

export const resourceRoutes = [
  route({
    method: 'get',
    path: '/v1/resources',
    summary: "The program's brand resources (files and copy) in the owner's order",
    access: 'secret',
    status: 200,
    response: resourceList,
    async handle({ db, program }) {
      return { status: 200, body: listBody(await listResources(db, program.id)) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/resources/:id',
    summary: 'Fetch one brand resource',
    access: 'secret',
    status: 200,
    response: one(resourceSchema),
    async handle({ db, program, params }) {
      return { status: 200, body: { data: renderResource(await getResource(db, program.id, params.id ?? '')) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/resources/files',
    summary: `Upload a file (PNG, JPEG, WebP, GIF, SVG, PDF or ZIP, at most ${MAX_FILE_BYTES} bytes) as the whole body; its type is read from its bytes`,
    access: 'secret',
    uploadLimit: MAX_FILE_BYTES,
    query: z.strictObject({
      title,
      file_name: z.string().max(200).optional().meta({ description: 'The name a download gets (its extension from the type read)' }),
    }),
    status: 201,
    response: one(resourceSchema),
    async handle({ db, program, query, upload, now }) {
      const row = await db.transaction((tx) =>
        addFile(tx, program.id, { title: query.title, fileName: query.file_name, bytes: upload ?? Buffer.alloc(0) }, now),
      );
      return { status: 201, body: { data: renderResource(row) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/resources/copy',
    summary: 'Add a piece of copy (a text partners copy into their posts)',
    access: 'secret',
    body: z.strictObject({ title, body: z.string().trim().min(1).max(10_000) }),
    status: 201,
    response: one(resourceSchema),
    async handle({ db, program, body, now }) {
      const row = await db.transaction((tx) => addCopy(tx, program.id, body.title, body.body, now));
      return { status: 201, body: { data: renderResource(row) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/resources/:id',
    summary: 'Rename a brand resource',
    access: 'secret',
    body: z.strictObject({ title }),
    status: 200,
    response: one(resourceSchema),
    async handle({ db, program, params, body }) {
      const row = await db.transaction((tx) => retitle(tx, program.id, params.id ?? '', body.title));
      return { status: 200, body: { data: renderResource(row) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/resources/order',
    summary: "Put the program's resources in this order: every id once",
    access: 'secret',
    body: z.strictObject({ ids: z.array(z.string().min(1).max(64)).max(200) }),
    status: 200,
    response: resourceList,
    async handle({ db, program, body }) {
      return { status: 200, body: listBody(await db.transaction((tx) => reorder(tx, program.id, body.ids))) };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/resources/:id',
    summary: 'Delete a brand resource (a logo that was this file is unset)',
    access: 'secret',
    status: 204,
    async handle({ db, program, params, now }) {
      await db.transaction((tx) => removeResource(tx, program.id, params.id ?? '', now));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/resources/:id/file',
    summary: "A file resource's bytes, as an attachment of its sniffed type",
    access: 'secret',
    status: 200,
    produces: 'application/octet-stream',
    handle: (input) => download(input, input.program.id, input.params.id ?? ''),
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships/:id/resources',
    summary: "The program's brand resources, for its accepted partner",
    access: 'partner',
    status: 200,
    response: resourceList,
    async handle(input) {
      return { status: 200, body: listBody(await listResources(input.db, await partnerProgram(input))) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/portal/partnerships/:id/resources/:resource/file',
    summary: 'Download one of the program’s files',
    access: 'partner',
    status: 200,
    produces: 'application/octet-stream',
    handle: async (input) => download(input, await partnerProgram(input), input.params.resource ?? ''),
  }),
  route({
    method: 'get',
    path: '/v1/embed/resources',
    summary: "The program's brand resources, for the embedded partner",
    access: 'embed',
    status: 200,
    response: resourceList,
    async handle(input) {
      return { status: 200, body: listBody(await listResources(input.db, embedProgram(input))) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/embed/resources/:resource/file',
    summary: 'Download one of the program’s files, in the embed',
    access: 'embed',
    status: 200,
    produces: 'application/octet-stream',
    handle: (input) => download(input, embedProgram(input), input.params.resource ?? ''),
  }),
];
