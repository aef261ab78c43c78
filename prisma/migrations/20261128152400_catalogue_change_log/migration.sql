-- Hand-written. The catalogue change log (table catalogue_changes, docs/scenarios.md "Re-pricing saved scenarios"):
-- every write to a rate card, an approval, an asset mapping or the asset tree leaves one row per (transaction,
-- organisation, kind), written in the writer's own transaction by the database itself, so every surface (REST,
-- GraphQL, import, restore, MCP, catalogue files) is covered without any service remembering to.
-- organisation_id null: every financier (an asset-tree edit, a shared product, a TRUNCATE of a catalogue load).
-- The catalogue-version bump (prisma/migrations/*_catalogue_version_bumped_at_commit) stamps the transaction's rows
-- with the version it commits as, so a reader knows which snapshot already holds the change.

-- One row per (transaction, organisation, kind): a transaction-local setting remembers what was logged, so a
-- statement writing thousands of rows costs one insert, not thousands.
CREATE OR REPLACE FUNCTION note_catalogue_change(change_kind text, org integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  flag text := 'catalogue_changes.' || change_kind || '_' || coalesce(org::text, 'all');
  tx bigint := txid_current();
BEGIN
  IF current_setting(flag, true) = tx::text THEN
    RETURN;
  END IF;
  PERFORM set_config(flag, tx::text, true);
  INSERT INTO catalogue_changes (txid, organisation_id, kind) VALUES (tx, org, change_kind);
END $$;

CREATE OR REPLACE FUNCTION log_catalogue_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change_kind text := TG_ARGV[0];
  r record;
  org integer;
BEGIN
  FOR r IN SELECT * FROM (VALUES (1), (2)) AS side(n) LOOP
    -- Both sides of an UPDATE (a row moved to another financier changes both cards); one side otherwise.
    CONTINUE WHEN (r.n = 1 AND TG_OP = 'INSERT') OR (r.n = 2 AND TG_OP = 'DELETE');
    IF TG_TABLE_NAME = 'assets' THEN
      org := NULL;
    ELSIF TG_TABLE_NAME = 'approval_rate_brackets' THEN
      -- The approval may be gone (a cascade): its own delete logged its organisation.
      SELECT a.organisation_id INTO org FROM approvals a
       WHERE a.id = CASE WHEN r.n = 1 THEN OLD.approval_id ELSE NEW.approval_id END;
      CONTINUE WHEN NOT FOUND;
    ELSIF r.n = 1 THEN
      org := (to_jsonb(OLD) ->> 'organisation_id')::integer;
    ELSE
      org := (to_jsonb(NEW) ->> 'organisation_id')::integer;
    END IF;
    PERFORM note_catalogue_change(change_kind, org);
  END LOOP;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION log_catalogue_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM note_catalogue_change(TG_ARGV[0], NULL);
  RETURN NULL;
END $$;

DO $$
DECLARE
  t text[];
BEGIN
  FOREACH t SLICE 1 IN ARRAY ARRAY[['products', 'rate_card'], ['rate_brackets', 'rate_card'],
                                  ['asset_rate_brackets', 'asset_mapping'], ['approvals', 'approval'],
                                  ['approval_rate_brackets', 'approval'], ['assets', 'asset_tree']] LOOP
    -- Named before catalogue_version_* so that on TRUNCATE (both immediate) the log row exists when the bump stamps.
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW '
                   'EXECUTE FUNCTION log_catalogue_row_change(%L)', 'catalogue_change_' || t[1], t[1], t[2]);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT '
                   'EXECUTE FUNCTION log_catalogue_truncate(%L)', 'catalogue_change_' || t[1] || '_truncate', t[1], t[2]);
  END LOOP;
END $$;

-- The version bumps stamp the transaction's change rows with the version it commits as (a later bump in the same
-- transaction, e.g. a second TRUNCATE, stamps them again with the newer one).
CREATE OR REPLACE FUNCTION bump_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  UPDATE "catalogue_state" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO v;
  UPDATE catalogue_changes SET version = v WHERE txid = txid_current();
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION bump_catalogue_version_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  IF current_setting('catalogue.version_bumped', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('catalogue.version_bumped', 'on', true);
  UPDATE "catalogue_state" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO v;
  UPDATE catalogue_changes SET version = v WHERE txid = txid_current();
  RETURN NULL;
END $$;
