// Small files of each type the resources take, and the hostile ones they refuse, made in
// code so each test says what its bytes are.

import { deflateRawSync } from 'node:zlib';

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#0b6b78"/></svg>',
);
export const SVG_SCRIPT = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
export const SVG_ONLOAD = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>');

/** A ZIP of one deflated entry: `bytes` as `name`, its sizes as the directory should say. */
export function zipOf(name: string, bytes: Buffer): Buffer {
  const data = deflateRawSync(bytes);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(bytes.length, 22);
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return Buffer.concat([header, Buffer.from(name), data, end]);
}

/** A zip bomb: 50 MB of zeros, deflated to about 50 KB. */
export const ZIP_BOMB = zipOf('zeros.bin', Buffer.alloc(50 * 1024 * 1024));
export const ZIP = zipOf('readme.txt', Buffer.from('Brand guidelines: use the logo on white.\n'));
