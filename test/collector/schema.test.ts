// The committed schema dumps (packages/collector/src/platform/db/schema/) are what a fresh
// database ends with: a migration added without `npm run schema` fails here, and its
// effect on the schema shows in review as a diff of those files.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCHEMA_FILES, schemaDump } from '../../scripts/schema-dump.mjs';
import { migrate } from '../../packages/collector/src/platform/db/migrate.js';
import { ENGINE, testDatabase, withDb, type TestDatabase } from './database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.drop());

it(`the committed ${ENGINE} schema dump is a fresh database's`, async () => {
  const fresh = await withDb(database.url, async (db) => {
    await migrate(db, 1);
    return schemaDump(db);
  });
  const committed = readFileSync(SCHEMA_FILES[ENGINE], 'utf8');
  expect(fresh, `${SCHEMA_FILES[ENGINE]} is stale: run npm run schema`).toBe(committed);
});
