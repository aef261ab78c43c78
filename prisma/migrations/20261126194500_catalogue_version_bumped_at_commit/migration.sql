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

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['organisations', 'assets', 'products', 'rate_brackets', 'asset_rate_brackets', 'approvals',
                           'approval_rate_brackets'] LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', 'catalogue_version_' || t, t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version()',
                   'catalogue_version_' || t || '_truncate', t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I DEFERRABLE INITIALLY DEFERRED '
                   'FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version_at_commit()', 'catalogue_version_' || t, t);
  END LOOP;
END $$;
