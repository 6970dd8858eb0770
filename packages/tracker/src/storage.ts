// Small browser-storage helpers. Nothing here throws: storage may be disabled, full,
// or hold something another script wrote.

/** localStorage: get (no value), set (a string) or remove (an empty string). */
export function local(key: string, value?: string): string | null | void {
  try {
    return localStorage[value == null ? 'getItem' : value ? 'setItem' : 'removeItem'](key, value!);
  } catch {
    // disabled or full: the cookie copy still works
  }
}

/** JSON.parse that answers `fallback` instead of throwing. */
export function json<T>(raw: string | null | void, fallback: T): T {
  try {
    return (raw && JSON.parse(raw)) || fallback;
  } catch {
    return fallback;
  }
}

/**
 * The first-party cookie `_gr_id`: read it (no value), or write it (a value, with its
 * lifetime in seconds and its domain; an empty value with 0 deletes it).
 */
export function cookie(value?: string, maxAge?: number, domain?: string): string {
  if (value != null) {
    document.cookie = `_gr_id=${encodeURIComponent(value)};path=/;max-age=${maxAge};SameSite=Lax${
      domain ? ';domain=' + domain : ''
    }${location.protocol == 'https:' ? ';Secure' : ''}`;
  }
  return decodeURIComponent((/(?:^|; )_gr_id=([^;]*)/.exec(document.cookie) || [])[1] || '');
}
