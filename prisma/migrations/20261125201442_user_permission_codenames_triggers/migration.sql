-- Hand-written. users.permission_codenames is what the user's groups grant (sorted, each once), kept here so the
-- caller statement, run on every request, reads one column instead of joining "_UserGroups", "_GroupPermissions" and
-- permissions. Every change that can alter a user's permissions rewrites the column in the same transaction:
-- membership ("_UserGroups"), a group's permissions ("_GroupPermissions", and their cascades from deleting a group or
-- a permission), a permission's codename, and TRUNCATE of either link table.

-- The users named, their codenames recomputed. Their rows are locked first and the codenames read by a later
-- statement, so under READ COMMITTED the read sees every membership change committed by a transaction that held the
-- lock before us (two concurrent grants to one user both land).
CREATE OR REPLACE FUNCTION refresh_permission_codenames(p_users integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "users" WHERE "id" = ANY (p_users) ORDER BY "id" FOR NO KEY UPDATE;
  UPDATE "users" u
     SET "permission_codenames" = ARRAY(
           SELECT DISTINCT p."codename"
             FROM "_UserGroups" ug
             JOIN "_GroupPermissions" gp ON gp."A" = ug."A"
             JOIN "permissions" p ON p."id" = gp."B"
            WHERE ug."B" = u."id"
            ORDER BY p."codename")
   WHERE u."id" = ANY (p_users);
END $$;

-- Membership: the users whose rows changed (transition tables: one call per statement, however many rows).
CREATE OR REPLACE FUNCTION user_groups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM refresh_permission_codenames(ARRAY(SELECT DISTINCT "B" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM refresh_permission_codenames(ARRAY(SELECT DISTINCT "B" FROM old_rows));
  ELSE
    PERFORM refresh_permission_codenames(ARRAY(SELECT "B" FROM new_rows UNION SELECT "B" FROM old_rows));
  END IF;
  RETURN NULL;
END $$;

-- A group's permissions: every member of the groups whose rows changed.
CREATE OR REPLACE FUNCTION group_permissions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    changed := ARRAY(SELECT DISTINCT "A" FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    changed := ARRAY(SELECT DISTINCT "A" FROM old_rows);
  ELSE
    changed := ARRAY(SELECT "A" FROM new_rows UNION SELECT "A" FROM old_rows);
  END IF;
  PERFORM refresh_permission_codenames(ARRAY(SELECT DISTINCT "B" FROM "_UserGroups" WHERE "A" = ANY (changed)));
  RETURN NULL;
END $$;

-- A permission renamed: everyone whose groups grant it.
CREATE OR REPLACE FUNCTION permission_codename_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_permission_codenames(ARRAY(
    SELECT DISTINCT ug."B" FROM new_rows n
      JOIN "_GroupPermissions" gp ON gp."B" = n."id"
      JOIN "_UserGroups" ug ON ug."A" = gp."A"));
  RETURN NULL;
END $$;

-- TRUNCATE of a link table (a catalogue reset truncates users with it): every user is recomputed.
CREATE OR REPLACE FUNCTION permission_links_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_permission_codenames(ARRAY(SELECT "id" FROM "users"));
  RETURN NULL;
END $$;

CREATE TRIGGER user_groups_inserted AFTER INSERT ON "_UserGroups"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_groups_changed();
CREATE TRIGGER user_groups_deleted AFTER DELETE ON "_UserGroups"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_groups_changed();
CREATE TRIGGER user_groups_updated AFTER UPDATE ON "_UserGroups"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_groups_changed();
CREATE TRIGGER user_groups_truncated AFTER TRUNCATE ON "_UserGroups"
  FOR EACH STATEMENT EXECUTE FUNCTION permission_links_truncated();

CREATE TRIGGER group_permissions_inserted AFTER INSERT ON "_GroupPermissions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION group_permissions_changed();
CREATE TRIGGER group_permissions_deleted AFTER DELETE ON "_GroupPermissions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION group_permissions_changed();
CREATE TRIGGER group_permissions_updated AFTER UPDATE ON "_GroupPermissions"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION group_permissions_changed();
CREATE TRIGGER group_permissions_truncated AFTER TRUNCATE ON "_GroupPermissions"
  FOR EACH STATEMENT EXECUTE FUNCTION permission_links_truncated();

-- (Every update: a trigger with transition tables cannot name columns, and permissions change only with the catalogue.)
CREATE TRIGGER permission_codename_updated AFTER UPDATE ON "permissions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION permission_codename_changed();

-- Users as they are now.
UPDATE "users" SET "permission_codenames" = '{}';
SELECT refresh_permission_codenames(ARRAY(SELECT DISTINCT "B" FROM "_UserGroups"));
