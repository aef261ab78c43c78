/**
 * POST /rate-cards/import: replace the caller's financier's whole rate card with a file's, all or nothing, recorded
 * as one version "Imported from file" (docs/rate-card-import.md). Body `{format, content, expected_version}`; the
 * expected version (the preview's `expected_version`) may come as `If-Match: "7"` instead, and is required.
 * 200 `{version_id, card_version, summary_lines, warnings, parts, subtrees}` with `ETag: "<card_version>"`;
 * 400 a bad file (every problem by location); 409 `{error: "version_conflict", current_version}`.
 */
import type { Request } from 'express';
import { body, defineRoute } from '../../define-route.ts';

/** `expected_version` from the body, else `If-Match` (`"7"`, `W/"7"`, `7`); anything else is passed on for a 400. */
function expectedVersionOf(req: Request): unknown {
  const sent = body(req).expected_version;
  if (sent !== undefined) return sent;
  const header = req.get('if-match')?.trim();
  if (!header) return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(header);
  return match ? Number(match[1]) : header;
}

export default defineRoute({
  method: 'post',
  path: '/rate-cards/import',
  document: `mutation RestApplyRateCardImport($format: RateCardImportFormat!, $content: String!, $expected_version: Int!) {
    applyRateCardImport(format: $format, content: $content, expectedVersion: $expected_version) {
      __typename ... on RateCardImportResult { version_id card_version summary_lines warnings parts subtrees }
      ... on RateCardVersionConflictError { current_version }
      ...ErrorFields } }`,
  variables: (req) => ({
    format: body(req).format,
    content: body(req).content,
    expected_version: expectedVersionOf(req),
  }),
  respond: (r) => {
    switch (r.__typename) {
      case 'RateCardImportResult': {
        const { __typename, ...result } = r;
        return [200, result, { ETag: `"${result.card_version}"` }];
      }
      case 'RateCardVersionConflictError':
        return [409, { error: 'version_conflict', current_version: r.current_version }];
      default:
        return undefined;
    }
  },
});
