import type { Request } from 'express';
import { body } from '../../define-route.ts';

/**
 * The card version a REST writer read: the body's `expected_version`, else the `If-Match` header (`"7"`, `W/"7"` or
 * `7`; `*` = no check). Anything else is handed on as it is, so the Int variable refuses it as a 400 naming
 * `expected_version`. Absent: no check (the last writer wins).
 */
export function expectedVersionOf(req: Request): unknown {
  const sent = body(req).expected_version;
  if (sent !== undefined) return sent;
  const header = req.get('if-match')?.trim();
  if (!header || header === '*') return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(header);
  return match ? Number(match[1]) : header;
}

/** The card version after a write, as the ETag a client sends back in If-Match. */
export const etagOf = (cardVersion: number): Record<string, string> => ({ ETag: `"${cardVersion}"` });
