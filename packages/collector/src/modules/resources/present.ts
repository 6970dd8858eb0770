// A resource as the API, the portal and the embed show it: a file by its sniffed type and
// size (its bytes only through its download), a piece of copy with its text.

import type { ResourcePayload } from '../../events/types.js';
import type { ResourceRow } from './model.js';

export const renderResource = (r: ResourceRow): ResourcePayload => ({
  id: r.id,
  type: 'resource',
  attributes: {
    kind: r.kind,
    title: r.title,
    file_name: r.file_name,
    media_type: r.media_type,
    size: Number(r.size),
    body: r.body,
    position: Number(r.position),
    created_at: Number(r.created_at),
  },
});
