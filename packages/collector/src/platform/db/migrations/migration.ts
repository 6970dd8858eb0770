// What a migration file exports. A migration is frozen once it has shipped: databases
// out there ran it as written, so a change to the schema is a new numbered file. Files
// import nothing but this type, so no later edit elsewhere can change what they run.

/** A script of `;`-separated statements, or (for bodies that hold `;`) its statements one by one. */
export type Script = string | readonly string[];

/** One script for both engines, or one per engine where their SQL differs. */
export type Migration = Script | { readonly sqlite: Script; readonly postgres: Script };
