/**
 * A rate-card file as read, before its records are judged: the same shape whichever format it came in, each record
 * knowing where each of its fields sits in the file, so every problem is reported where the financier can fix it.
 */
export interface FileProduct {
  /** The product's own fields as read (JSON values; a CSV cell already read as a number where the field is one). */
  fields: Record<string, unknown>;
  /** JSON only: the file-local key brackets refer to it by. */
  key?: unknown;
  /** Location of one field ("line 3, column monthly_fee", "products[0].monthly_fee"). */
  at: (field: string) => string;
}

export interface FileBracket {
  fields: Record<string, unknown>;
  /** Which product of the file the bracket belongs to, and where that reference sits. */
  product: { by: 'key' | 'name'; value: unknown; at: string } | null;
  at: (field: string) => string;
}

export interface ParsedFile {
  products: FileProduct[];
  brackets: FileBracket[];
}
