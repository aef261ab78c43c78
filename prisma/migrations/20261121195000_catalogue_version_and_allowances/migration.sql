-- Hand-written: what Prisma's schema language cannot say.

-- 1. The catalogue version. Every write to a table the engines read bumps it, in the writer's own transaction,
--    so a process can keep an in-memory catalogue snapshot and know with one cheap read whether it is current.
INSERT INTO "catalogue_state" ("id", "version") VALUES (1, 1) ON CONFLICT DO NOTHING;

CREATE OR REPLACE FUNCTION bump_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalogue_state" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

CREATE TRIGGER catalogue_version_organisations AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER catalogue_version_assets AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "assets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER catalogue_version_products AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER catalogue_version_rate_brackets AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rate_brackets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER catalogue_version_asset_rate_brackets AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "asset_rate_brackets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER catalogue_version_approvals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "approvals"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER catalogue_version_approval_rate_brackets AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "approval_rate_brackets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();

-- 2. Daily allowances, consumed all-or-nothing in one statement. Rows are created, then locked in the order given
--    (callers pass metrics sorted), so concurrent runs queue instead of deadlocking, across any number of processes.
--    A refused run changes no count. A null limit means unlimited.
CREATE OR REPLACE FUNCTION consume_allowances(p_user integer, p_day text, p_metrics text[], p_limits integer[])
RETURNS TABLE (ok boolean, metric text, used integer, "limit" integer) LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  current_count integer;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_metrics, 1), 0) LOOP
    INSERT INTO "daily_usage" ("user_id", "day", "metric", "count") VALUES (p_user, p_day, p_metrics[i], 0)
      ON CONFLICT DO NOTHING;
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(p_metrics, 1), 0) LOOP
    SELECT d."count" INTO current_count FROM "daily_usage" d
      WHERE d."user_id" = p_user AND d."day" = p_day AND d."metric" = p_metrics[i] FOR UPDATE;
    IF p_limits[i] IS NOT NULL AND current_count >= p_limits[i] THEN
      RETURN QUERY SELECT false, p_metrics[i], current_count, p_limits[i];
      RETURN;
    END IF;
  END LOOP;
  UPDATE "daily_usage" d SET "count" = d."count" + 1
    WHERE d."user_id" = p_user AND d."day" = p_day AND d."metric" = ANY (p_metrics);
  RETURN QUERY SELECT true, NULL::text, NULL::integer, NULL::integer;
END $$;
