// The resources module's records as plain types: a file or a piece of copy the owner hands
// to the program's partners.

export type ResourceKind = 'file' | 'copy';

/** A row as listed: everything but the file's bytes, which only a download reads. */
export interface ResourceRow {
  id: string;
  program_id: string;
  kind: ResourceKind;
  title: string;
  file_name: string | null;
  media_type: string | null;
  size: number;
  sha256: string | null;
  body: string | null;
  position: number;
  created_at: number;
}

export interface ResourceFile extends ResourceRow {
  content: Buffer;
}
