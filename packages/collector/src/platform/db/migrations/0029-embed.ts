// Issue 36: reserved for this capability's tables while it is being built.

import type { Migration } from './migration.js';

const migration: Migration = '';

export default migration;
