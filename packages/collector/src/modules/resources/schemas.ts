// A resource's record, shared by the owner's, the portal's and the embed's routes.

import { z } from 'zod';
import { resource, unixTime } from '../../platform/http/schemas.js';
import { MEDIA_TYPES } from './sniff.js';

export const resourceSchema = resource('resource', {
  kind: z.enum(['file', 'copy']),
  title: z.string(),
  file_name: z.string().nullable().meta({ description: "A file's download name, its extension from its sniffed type; null for copy" }),
  media_type: z.enum(MEDIA_TYPES).nullable().meta({ description: "A file's type, read from its bytes; null for copy" }),
  size: z.number().int().meta({ description: "The file's bytes, or the copy's in UTF-8" }),
  body: z.string().nullable().meta({ description: "The copy's text; null for a file" }),
  position: z.number().int().meta({ description: "Its place in the owner's order, from 1" }),
  created_at: unixTime,
});

export const resourceList = z.object({ data: z.array(resourceSchema) });
