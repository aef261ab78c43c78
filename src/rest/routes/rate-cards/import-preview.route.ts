/**
 * POST /rate-cards/import/preview: what importing a rate-card file would change; writes nothing
 * (docs/rate-card-import.md). Body `{format: "csv" | "json", content: "<the file as text>"}`.
 * 200 `{summary_lines, warnings, parts, subtrees, expected_version}`; 400 `{error, errors: {"<location>": [...]}}`.
 */
import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/rate-cards/import/preview',
  document: `query RestPreviewRateCardImport($format: RateCardImportFormat!, $content: String!) {
    previewRateCardImport(format: $format, content: $content) {
      __typename ... on RateCardImportPreview { summary_lines warnings parts subtrees expected_version }
      ...ErrorFields } }`,
  variables: (req) => ({ format: body(req).format, content: body(req).content }),
  respond: (r) => {
    if (r.__typename !== 'RateCardImportPreview') return undefined; // 400, 401, 403: the bridge's shared bodies
    const { __typename, ...preview } = r;
    return [200, preview];
  },
});
