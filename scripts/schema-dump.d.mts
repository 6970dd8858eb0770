// Types for schema-dump.mjs, which test/collector/schema.test.ts and migrations.test.ts import.

export declare const SCHEMA_FILES: { readonly sqlite: string; readonly postgres: string };

/** What schemaDump reads a database through: the collector's Db has it. */
export interface DumpSource {
  readonly engine: 'sqlite' | 'postgres';
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
}

export declare function schemaDump(db: DumpSource): Promise<string>;
