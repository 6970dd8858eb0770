// A stored file as an HTTP answer, for the owner's, the partners' and the public logo's
// routes alike: the sniffed type, nosniff, a sandbox that stops an SVG or a PDF from running
// anything even when opened as a page, and an ETag of the bytes for revalidation.

import type { Reply } from '../../api/route.js';
import type { ResourceFile } from './model.js';

/** Nothing loads, nothing runs, no form posts, no framing: an image or a document is only shown. */
export const FILE_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

export interface FileReplyOptions {
  /** The request's If-None-Match: a 304 when it names these bytes. */
  ifNoneMatch: string | undefined;
  /** `attachment` for downloads; `inline` for the logo the pages show. */
  disposition: 'attachment' | 'inline';
  /** Revalidated by default (a partner's download, behind a session); the public logo may be kept a while. */
  cacheControl?: string;
}

export function fileReply(file: ResourceFile, options: FileReplyOptions): Reply {
  const etag = `"${file.sha256}"`;
  const headers: Record<string, string> = {
    'Content-Type': file.media_type ?? 'application/octet-stream',
    'Content-Disposition': `${options.disposition}; filename="${file.file_name ?? 'resource'}"`,
    'Content-Security-Policy': FILE_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': options.cacheControl ?? 'private, no-cache',
    ETag: etag,
  };
  if (options.ifNoneMatch?.split(',').some((tag) => tag.trim() === etag)) return { status: 304, headers };
  return { status: 200, headers, body: file.content };
}
