// The allowed moves of each resource's state (docs/api.md §10). Anything not listed,
// including a move to the state a record is already in, is refused.

import { fail } from '../platform/errors.js';

const MACHINES = {
  partnership: { pending: ['accepted', 'declined'], accepted: ['declined'], declined: ['accepted'] },
  commission: { pending: ['paid', 'rejected'], paid: [], rejected: [] },
  // A submitted lead (docs/leads.md): qualified before it is won; lost from either open stage.
  lead: { new: ['qualified', 'lost'], qualified: ['won', 'lost'], won: [], lost: [] },
  referral: { converted: ['paid', 'rejected'], paid: ['churned', 'rejected'], churned: ['rejected'], rejected: [] },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type Machine = keyof typeof MACHINES;
export type StateOf<M extends Machine> = keyof (typeof MACHINES)[M] & string;

export function states<M extends Machine>(machine: M): StateOf<M>[] {
  return Object.keys(MACHINES[machine]) as StateOf<M>[];
}

export function canMove<M extends Machine>(machine: M, from: StateOf<M>, to: StateOf<M>): boolean {
  const allowed = (MACHINES[machine] as Record<string, readonly string[]>)[from] ?? [];
  return allowed.includes(to);
}

export function assertMove<M extends Machine>(machine: M, from: StateOf<M>, to: StateOf<M>): void {
  if (!canMove(machine, from, to)) {
    throw fail('invalid_transition', `a ${machine} cannot move from ${from} to ${to}`, { field: 'state' });
  }
}
