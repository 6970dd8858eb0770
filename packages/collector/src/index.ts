// The collector as a library: for tests, benchmarks and embedding.
export { createApp, ROUTES, type AppDeps } from './app.js';
export { openApiDocument } from './api/openapi.js';
export { loadConfig, type Config } from './platform/config.js';
export { createLogger } from './platform/log.js';
export { startServer, type RunningServer } from './server.js';
export { migrate } from './platform/db/migrate.js';
export { openDatabase, openMigrated } from './platform/db/open.js';
export { openSqlite } from './platform/db/sqlite.js';
export { openPostgres } from './platform/db/postgres.js';
