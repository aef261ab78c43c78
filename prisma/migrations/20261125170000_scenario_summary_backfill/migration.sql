-- Scenarios recorded before summaries existed get one from what they kept: the asset (its name today), the amount
-- and term asked for. The cheapest result of that run was never stored and is not recomputed (a later rate change
-- must not rewrite history), so it stays null. Requests that do not read as a valid run keep a null summary.
UPDATE "scenarios" AS s
   SET "summary" = jsonb_build_object(
         'asset', jsonb_build_object('id', a."id", 'name', a."name"),
         'amount', round((s."request"->>'cost')::numeric, 2)::text,
         'term', CASE WHEN (s."request"->>'term') ~ '^[0-9]{1,4}$' THEN (s."request"->>'term')::int END,
         'cheapest', NULL)
  FROM "assets" AS a
 WHERE s."summary" IS NULL
   AND jsonb_typeof(s."request") = 'object'
   AND (s."request"->>'asset_value') ~ '^[0-9]{1,9}$'
   AND a."id" = (s."request"->>'asset_value')::int
   AND (s."request"->>'cost') ~ '^[0-9]{1,13}(\.[0-9]+)?$';
