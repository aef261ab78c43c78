-- Hand-written. One statement per run: consume the daily allowances (all or nothing) and, only when they allow the
-- run, record it as the user's recent scenario for the tool, trimming that tool's recents to the newest p_keep.
-- Spec Authentication 5: a run consumes the allowance and adds to the caller's recents, from a session or a token.
-- With no metrics it only records (saving a recent). `kind = 'recent'` is re-checked on the DELETE's own WHERE so a
-- row promoted concurrently is left alone.
CREATE OR REPLACE FUNCTION record_run(
  p_user integer, p_day text, p_metrics text[], p_limits integer[],
  p_tool text, p_request jsonb, p_summary jsonb, p_keep integer
) RETURNS TABLE (ok boolean, metric text, used integer, "limit" integer, scenario_id integer) LANGUAGE plpgsql AS $$
DECLARE
  allowance record;
  new_id integer;
BEGIN
  SELECT * INTO allowance FROM consume_allowances(p_user, p_day, p_metrics, p_limits);
  IF NOT allowance.ok THEN
    RETURN QUERY SELECT false, allowance.metric, allowance.used, allowance."limit", NULL::integer;
    RETURN;
  END IF;
  INSERT INTO "scenarios" ("user_id", "tool", "kind", "request", "summary", "created_at", "updated_at")
    VALUES (p_user, p_tool, 'recent', p_request, p_summary, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
    RETURNING "id" INTO new_id;
  DELETE FROM "scenarios" s
   WHERE s."kind" = 'recent'
     AND s."id" IN (SELECT r."id" FROM "scenarios" r
                     WHERE r."user_id" = p_user AND r."tool" = p_tool AND r."kind" = 'recent'
                     ORDER BY r."id" DESC OFFSET p_keep);
  RETURN QUERY SELECT true, NULL::text, NULL::integer, NULL::integer, new_id;
END $$;
