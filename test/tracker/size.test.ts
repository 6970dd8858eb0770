// The snippet's size, as docs/tracker.md §12 measures it: minified tracker.js under gzip -9.
// The budget is the ceiling below: the measured size of the last build that lowered it. It
// may only come down, so no change can make the snippet larger.

import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { expect, it } from 'vitest';
import { BUNDLE } from './browser.js';

const CEILING = 1662;

it('tracker.js stays within its ceiling; the size is printed against it', () => {
  const bytes = Buffer.from(BUNDLE);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const b = (n: number) => `${n.toLocaleString('en-US')} B`;
  const against = gzip > CEILING ? `over by ${b(gzip - CEILING)}` : gzip < CEILING ? `${b(CEILING - gzip)} under` : 'at it';
  console.log(
    `tracker.js: ${b(bytes.length)} minified, ${b(gzip)} gzip -9, ${b(brotli)} brotli; ` +
      `budget ${b(CEILING)} (ceiling; may only come down): ${against}`,
  );
  expect(gzip).toBeLessThanOrEqual(CEILING);
});
