/**
 * `npm run equipment-editors -- grant EMAIL | revoke EMAIL | list`: the service operator's command for who may edit
 * the shared asset tree (`change_equipment`, docs/asset-tree.md). No organisation admin holds that right, and no API
 * grants it; this command (or a catalogue file's groups) is how the operator gives it. Works on the configured
 * database (DATABASE_URL, or embedded PGlite in DATA_DIR; the PGlite data directory's lock applies, as for the seed).
 * Exit codes: 0 done, 1 refused or failed, 2 usage.
 */
import { ConfigError, loadConfig } from '../src/lib/config.ts';
import { DataDirLockedError } from '../src/lib/data-dir-lock.ts';
import { openDatabase, type Database } from '../src/lib/db.ts';
import {
  EQUIPMENT_EDITORS_GROUP,
  UnknownUserError,
  equipmentEditors,
  grantEquipmentEditing,
  revokeEquipmentEditing,
} from '../src/modules/auth/equipment-editors.ts';

const USAGE = 'usage: npm run equipment-editors -- grant EMAIL | revoke EMAIL | list';

async function main(argv: string[]): Promise<number> {
  const [command, email, ...rest] = argv;
  const valid =
    rest.length === 0 &&
    ((command === 'list' && email === undefined) || ((command === 'grant' || command === 'revoke') && !!email));
  if (!valid) {
    console.error(USAGE);
    return 2;
  }
  let db: Database;
  try {
    const config = loadConfig();
    db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config,
      lockOwner: 'equipment-editors',
    });
  } catch (e) {
    if (e instanceof ConfigError || e instanceof DataDirLockedError) {
      console.error(`refused, nothing written: ${e.message}`);
      return 1;
    }
    throw e;
  }
  try {
    if (command === 'list') {
      for (const editor of await equipmentEditors(db.prisma)) console.log(editor);
    } else if (command === 'grant') {
      const granted = await grantEquipmentEditing(db.prisma, email);
      console.log(`${granted.email} may edit the asset tree (group "${EQUIPMENT_EDITORS_GROUP}").`);
    } else {
      const revoked = await revokeEquipmentEditing(db.prisma, email);
      console.log(
        revoked.groups.length
          ? `${revoked.email} may no longer edit the asset tree (left: ${revoked.groups.join(', ')}).`
          : `${revoked.email} could not edit the asset tree; nothing changed.`,
      );
    }
    return 0;
  } catch (e) {
    if (e instanceof UnknownUserError) console.error(`refused, nothing written: ${e.message}`);
    else console.error(`failed, nothing written: ${(e as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
