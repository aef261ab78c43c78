-- Hand-written. record_run (prisma/migrations/*_record_run) now takes one more lock before it writes the recent: a
-- transaction-scoped advisory lock on (user, tool), so one user's saves for one tool run one at a time.
-- Why: two concurrent trims of the same recents each locked the rows beyond the newest p_keep in the order their
-- plans scanned them. Each session caches its own plan, so the orders could differ, and the two deadlocked on each
-- other's rows (seen on PostgreSQL 15: about a third of rounds of 30 concurrent saves). Metered runs were mostly
-- spared because the day's counter rows are locked first, in one order; but not across midnight, and not when a
-- recent is saved with no metrics. Each trim also saw only rows already committed, so a burst left more than p_keep.
-- Holding the lock, the INSERT and the DELETE (each with a fresh snapshot, as PL/pgSQL gives a volatile function)
-- see every earlier writer's committed recent: exactly the newest p_keep are kept.
-- Lock order is the same for every caller: counter rows (sorted), then this lock, then scenario rows. A promote
-- locks the user row and one scenario row, and never this lock, so it cannot close a cycle with a save.
-- Key: the two-int4 advisory space (separate from the one-bigint space of Prisma's migration lock); key1 the user,
-- key2 hashtext('recent_scenarios:' || tool). Nothing else uses the two-int4 space.
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
  PERFORM pg_advisory_xact_lock(p_user, hashtext('recent_scenarios:' || p_tool));
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
