// What an uploaded file is, from its bytes alone (docs/resources.md): the name and the
// Content-Type the browser sent are never trusted. Each type the portal may hand to partners
// has its check here; anything else is refused, so nothing unknown is ever stored.

import { inflateRawSync } from 'node:zlib';
import { fail } from '../../platform/errors.js';

export const MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/svg+xml',
  'application/pdf',
  'application/zip',
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** What a ZIP may hold once unpacked: a partner's download must not fill their disk (a zip bomb). */
export const ZIP_LIMITS = { entries: 1000, unpackedBytes: 100 * 1024 * 1024, ratio: 100 } as const;

const starts = (bytes: Buffer, magic: readonly number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Buffer, text: string, at = 0) => bytes.toString('latin1', at, at + text.length) === text;

/** The type of `bytes` by its magic numbers; undefined when it is none we take. */
function magicType(bytes: Buffer): MediaType | undefined {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(bytes, 'RIFF') && ascii(bytes, 'WEBP', 8)) return 'image/webp';
  if (ascii(bytes, 'GIF87a') || ascii(bytes, 'GIF89a')) return 'image/gif';
  if (ascii(bytes, '%PDF-')) return 'application/pdf';
  if (starts(bytes, [0x50, 0x4b, 0x03, 0x04]) || starts(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'application/zip';
  return looksLikeSvg(bytes) ? 'image/svg+xml' : undefined;
}

function looksLikeSvg(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  // Text only: a NUL or a replacement character means binary that merely mentions <svg.
  if (text.includes('\0') || text.includes('\uFFFD')) return false;
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text.replace(/^\uFEFF/, ''));
}

// What could run or reach out when an SVG is opened as a page: scripts, handlers, links to
// javascript:, embedded HTML, external references. An SVG with any of them is refused
// outright rather than cleaned: a logo needs none, and a cleaner is one more parser to trust.
const SVG_ACTIVE = [
  /<script[\s>/]/i,
  /\son[a-z]+\s*=/i,
  /javascript:/i,
  /<foreignObject[\s>/]/i,
  /<!ENTITY/i,
  /(?:xlink:)?href\s*=\s*["']?\s*(?!#|data:image\/)[a-z]/i,
  /<(?:iframe|embed|object|use)[\s>/][^>]*(?:src|href)\s*=/i,
  /url\(\s*["']?\s*(?!#|data:image\/)[a-z]/i,
  /@import/i,
];

function checkSvg(bytes: Buffer): void {
  const text = bytes.toString('utf8');
  if (SVG_ACTIVE.some((pattern) => pattern.test(text))) {
    throw fail('invalid_field', 'the SVG holds a script, an event handler, embedded HTML or an external reference: refused', {
      field: 'file',
    });
  }
}

/**
 * Every entry of the ZIP unpacked (to nothing kept) under the limits: the sizes its
 * directory claims may lie, what inflating yields does not.
 */
function checkZip(bytes: Buffer): void {
  let at = 0;
  let entries = 0;
  let unpacked = 0;
  const bomb = () =>
    fail('payload_too_large', `the ZIP unpacks to more than ${ZIP_LIMITS.unpackedBytes} bytes or ${ZIP_LIMITS.ratio} times its size`);
  const limit = Math.min(ZIP_LIMITS.unpackedBytes, bytes.length * ZIP_LIMITS.ratio);
  while (at + 30 <= bytes.length && bytes.readUInt32LE(at) === 0x04034b50) {
    if (++entries > ZIP_LIMITS.entries) throw fail('payload_too_large', `the ZIP holds more than ${ZIP_LIMITS.entries} files`);
    const flags = bytes.readUInt16LE(at + 6);
    const method = bytes.readUInt16LE(at + 8);
    const compressed = bytes.readUInt32LE(at + 18);
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    // A size given only after the data (bit 3) cannot be walked without inflating blind: refused.
    if (flags & 0x08)
      throw fail('invalid_field', 'the ZIP streams its sizes after the data; make it with a standard tool', { field: 'file' });
    const data = bytes.subarray(start, start + compressed);
    if (data.length !== compressed) throw fail('invalid_field', 'the ZIP is truncated', { field: 'file' });
    if (method === 0) unpacked += compressed;
    else if (method === 8) {
      try {
        unpacked += inflateRawSync(data, { maxOutputLength: Math.max(1, limit - unpacked) }).length;
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw bomb();
        throw fail('invalid_field', 'the ZIP has an entry that does not inflate', { field: 'file' });
      }
    } else
      throw fail('invalid_field', `the ZIP uses compression method ${method}; only stored and deflated entries are taken`, {
        field: 'file',
      });
    if (unpacked >= limit) throw bomb();
    at = start + compressed;
  }
  if (entries === 0) throw fail('invalid_field', 'the ZIP holds no file', { field: 'file' });
}

/** The sniffed type of an upload, or the one error shape's refusal; nothing is stored before this passes. */
export function sniff(bytes: Buffer): MediaType {
  if (bytes.length === 0) throw fail('invalid_field', 'the file is empty', { field: 'file' });
  const type = magicType(bytes);
  if (!type) {
    throw fail('unsupported_media_type', `the file is none of the types taken (${MEDIA_TYPES.join(', ')}), whatever its name says`);
  }
  if (type === 'image/svg+xml') checkSvg(bytes);
  if (type === 'application/zip') checkZip(bytes);
  return type;
}

/** The extension a download's name gets from its type, so a renamed file saves as what it is. */
export const EXTENSIONS: Record<MediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
};

export const isImage = (type: string | null): boolean => type?.startsWith('image/') === true;
