// A file's size for the resources pages: a module of its own, so the portal's entry does not carry it.

import { locale } from './format.js';

/** A file's size in the language's words: "12 kB", "1.2 MB". */
export function fileSize(bytes: number): string {
  const [unit, size] = bytes >= 1e6 ? ['megabyte', bytes / 1e6] : bytes >= 1e3 ? ['kilobyte', bytes / 1e3] : ['byte', bytes];
  return new Intl.NumberFormat(locale(), { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(size);
}
