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
export function present(attributes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== null && value !== undefined) out[key] = value;
  return out;
}
