// The collector as a library: for tests, benchmarks and embedding.
export { createApp, ROUTES, type AppDeps } from './app.js';
export { openApiDocument } from './http/openapi.js';
export { loadConfig, type Config } from './config.js';
export { createLogger } from './log.js';
export { startServer, type RunningServer } from './server.js';
export { migrate } from './store/migrations.js';
export { openDatabase, openMigrated } from './store/open.js';
export { openSqlite } from './store/sqlite.js';
export { openPostgres } from './store/postgres.js';
