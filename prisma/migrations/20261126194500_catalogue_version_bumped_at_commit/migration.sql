-- Hand-written. The catalogue version (catalogue_state.version, prisma/migrations/*_catalogue_version_and_allowances)
-- is now bumped when the writing transaction commits, not after each writing statement.
-- Why: bumping it updates one row, so it holds that row's lock until commit. Taken after a transaction's first
-- catalogue write, that lock sat in the middle of its lock order: a transaction holding it could wait for a row
-- another writer had locked earlier (a rate bracket under an approval's KEY SHARE, say), while that writer waited for
-- the version row. PostgreSQL broke the cycle by failing one of them (seen: an approval PUT answered 500 while a
-- product with its rate brackets was deleted). Taken at commit, after every other lock, nobody holding it waits for
-- anything else, so it cannot be part of a cycle; and catalogue writes no longer queue behind each other's work.
-- How: one deferred constraint trigger per row written. The first to run at commit bumps the version and marks the
-- transaction (a transaction-local setting); the rest return at once. The bump stays in the writer's transaction, so
-- a reader never sees the new rows without the new version, nor the reverse. A statement that changes no row no
-- longer bumps it. TRUNCATE cannot have a constraint trigger; it keeps the immediate statement trigger (it takes an
-- ACCESS EXCLUSIVE lock anyway, and only loading a catalogue file uses it).
CREATE OR REPLACE FUNCTION bump_catalogue_version_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('catalogue.version_bumped', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('catalogue.version_bumped', 'on', true);
  UPDATE "catalogue_state" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

DROP TRIGGER "catalogue_version_organisations" ON "organisations";
CREATE TRIGGER "catalogue_version_organisations_truncate" AFTER TRUNCATE ON "organisations"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE CONSTRAINT TRIGGER "catalogue_version_organisations" AFTER INSERT OR UPDATE OR DELETE ON "organisations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit();

DROP TRIGGER "catalogue_version_assets" ON "assets";
CREATE TRIGGER "catalogue_version_assets_truncate" AFTER TRUNCATE ON "assets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE CONSTRAINT TRIGGER "catalogue_version_assets" AFTER INSERT OR UPDATE OR DELETE ON "assets"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit();

DROP TRIGGER "catalogue_version_products" ON "products";
CREATE TRIGGER "catalogue_version_products_truncate" AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE CONSTRAINT TRIGGER "catalogue_version_products" AFTER INSERT OR UPDATE OR DELETE ON "products"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit();

DROP TRIGGER "catalogue_version_rate_brackets" ON "rate_brackets";
CREATE TRIGGER "catalogue_version_rate_brackets_truncate" AFTER TRUNCATE ON "rate_brackets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE CONSTRAINT TRIGGER "catalogue_version_rate_brackets" AFTER INSERT OR UPDATE OR DELETE ON "rate_brackets"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit();

DROP TRIGGER "catalogue_version_asset_rate_brackets" ON "asset_rate_brackets";
CREATE TRIGGER "catalogue_version_asset_rate_brackets_truncate" AFTER TRUNCATE ON "asset_rate_brackets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE CONSTRAINT TRIGGER "catalogue_version_asset_rate_brackets" AFTER INSERT OR UPDATE OR DELETE ON "asset_rate_brackets"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit();

DROP TRIGGER "catalogue_version_approvals" ON "approvals";
CREATE TRIGGER "catalogue_version_approvals_truncate" AFTER TRUNCATE ON "approvals"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE CONSTRAINT TRIGGER "catalogue_version_approvals" AFTER INSERT OR UPDATE OR DELETE ON "approvals"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit();

DROP TRIGGER "catalogue_version_approval_rate_brackets" ON "approval_rate_brackets";
CREATE TRIGGER "catalogue_version_approval_rate_brackets_truncate" AFTER TRUNCATE ON "approval_rate_brackets"
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE CONSTRAINT TRIGGER "catalogue_version_approval_rate_brackets" AFTER INSERT OR UPDATE OR DELETE ON "approval_rate_brackets"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit();
