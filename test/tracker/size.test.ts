// The snippet's size, as design/tracker.md measures it: minified tracker.js under gzip -9.
// The budget is 1,536 bytes (goal 1,024). Until the bundle meets it, this test holds the
// measured size as a ceiling that may only come down, so no change can make it larger.

import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { expect, it } from 'vitest';
import { BUNDLE } from './browser.js';

const BUDGET = 1536;
const CEILING = 1667;

it('tracker.js stays within its ceiling; the size is printed', () => {
  const bytes = Buffer.from(BUNDLE);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(
    `tracker.js: ${bytes.length} B minified, ${gzip} B gzip -9, ${brotli} B brotli; budget ${BUDGET} B gzip, ` +
      (gzip <= BUDGET ? 'met' : `over by ${gzip - BUDGET} B`),
  );
  expect(gzip).toBeLessThanOrEqual(CEILING);
});
