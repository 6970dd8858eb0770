// A record as the API shows it (docs/api.md §8): its id, type and attributes, optional ones
// left out rather than null. Pure, so the domain (events) and the routes share it.

export interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  // JSON:API: a to-one relationship that is empty has `data: null`.
  relationships?: Record<string, { data: { id: string; type: string } | null }>;
}

/** Drops absent optional attributes: optional attributes ("when set" in docs/api.md §8) are left out, not null. */
export function present<T extends Record<string, unknown>>(attributes: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== null && value !== undefined) out[key] = value;
  // Typed as given, so an event's payload type (events/types.ts) checks the presenter's names.
  return out as T;
}
