// The branding module's record: how a program presents itself to partners (docs/branding.md).

export interface BrandRow {
  program_id: string;
  /** A file resource (an image) of the program; null: the pages show the program's name alone. */
  logo_id: string | null;
  /** #rrggbb, lower case; null: the apps' own colour. */
  accent: string | null;
  /** The program's own host name behind the operator's proxy; null: only the collector's. */
  host: string | null;
  updated_at: number;
}
