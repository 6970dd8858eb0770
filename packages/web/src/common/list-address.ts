// A list's page and filters kept in the address (?page=N&…), so a reload, the back button and
// a shared link show the same rows.

import { useLocation } from 'preact-iso/router';

export function useListAddress() {
  const { query, path, route } = useLocation();
  const to = (change: Record<string, string>) => `${path}?${new URLSearchParams({ ...query, ...change })}`;
  return {
    query,
    /** 1 when absent or not a page number. */
    page: Math.max(1, Number(query.page) || 1),
    /** Another page, as a new history entry. */
    go: (page: number) => route(to({ page: String(page) })),
    /** Other filters, from page 1, in place of the current entry. */
    set: (change: Record<string, string>) => route(to({ page: '1', ...change }), true),
  };
}
