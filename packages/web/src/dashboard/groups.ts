// The program's partner groups, as the partners' pages and the groups' own pages read
// them: every group (a program has a few; the API pages them by 50), the default first.

import { api, type Answer } from '../common/api.js';

export type Group = Answer<'/v1/groups'>['data'][number];
export type Reward = Answer<'/v1/rewards'>['data'][number];
export type GroupMove = Answer<'/v1/group_moves'>['data'][number];

/** Every group of the program: the default one first, then the oldest first. */
export async function allGroups(signal: AbortSignal): Promise<Group[]> {
  const all: Group[] = [];
  for (let after: string | undefined; ; ) {
    const page = await api.GET('/v1/groups', { params: { query: { per_page: 50, starting_after: after } }, signal });
    all.push(...page.data);
    const last = page.data.at(-1);
    if (!page.meta.pagination.has_more || !last) break;
    after = last.id;
  }
  return all.sort(
    (a, b) => Number(b.attributes.default) - Number(a.attributes.default) || a.attributes.created_at - b.attributes.created_at,
  );
}

/** The groups by id, for naming a partnership's group. */
export const byId = (groups: readonly Group[]): Record<string, Group> => Object.fromEntries(groups.map((g) => [g.id, g]));
