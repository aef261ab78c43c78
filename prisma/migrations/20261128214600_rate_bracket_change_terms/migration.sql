-- Hand-written. Rate-bracket changes say which terms they reach (docs/scenarios.md "The change log"): a bracket prices
-- a deal only at a term within [min_term, max_term], so a saved scenario whose term no changed bracket covers, before
-- or after the change, cannot move. One row per (transaction, organisation), kind `rate_bracket`, widened to cover
-- every bracket the transaction writes (null: no bound on that side); the row is written only when it widens, so an
-- import of a whole card costs a few updates, not one per bracket.

CREATE OR REPLACE FUNCTION note_rate_bracket_change(org integer, lo integer, hi integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  flag text := 'catalogue_changes.rate_bracket_' || org::text;
  tx bigint := txid_current();
BEGIN
  IF current_setting(flag, true) = tx::text THEN
    UPDATE catalogue_changes
       SET min_term = CASE WHEN min_term IS NULL OR lo IS NULL THEN NULL ELSE least(min_term, lo) END,
           max_term = CASE WHEN max_term IS NULL OR hi IS NULL THEN NULL ELSE greatest(max_term, hi) END
     WHERE txid = tx AND organisation_id = org AND kind = 'rate_bracket'
       AND ((min_term IS NOT NULL AND (lo IS NULL OR lo < min_term))
         OR (max_term IS NOT NULL AND (hi IS NULL OR hi > max_term)));
    RETURN;
  END IF;
  PERFORM set_config(flag, tx::text, true);
  INSERT INTO catalogue_changes (txid, organisation_id, kind, min_term, max_term) VALUES (tx, org, 'rate_bracket', lo, hi);
END $$;

CREATE OR REPLACE FUNCTION log_rate_bracket_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Both sides of an UPDATE: the terms a bracket covered and the terms it covers now.
  IF TG_OP <> 'INSERT' THEN
    PERFORM note_rate_bracket_change(OLD.organisation_id, OLD.min_term, OLD.max_term);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM note_rate_bracket_change(NEW.organisation_id, NEW.min_term, NEW.max_term);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER catalogue_change_rate_brackets ON rate_brackets;
CREATE TRIGGER catalogue_change_rate_brackets AFTER INSERT OR UPDATE OR DELETE ON rate_brackets
  FOR EACH ROW EXECUTE FUNCTION log_rate_bracket_change();
-- A TRUNCATE reaches every term of every financier, as before (kind rate_card, organisation null).
