/**
 * One PGlite per starting point per test worker, handed from file to file, instead of a copy opened for each file
 * (an open unpacks the whole dump and starts PostgreSQL, most of a short file's time).
 *
 * Exactness is checked, not assumed. Before each reuse the instance is reset to its starting point (session state
 * discarded, every table emptied and refilled with the starting point's rows in their order, sequences set back), then
 * fingerprinted: schema, roles and databases, every table's rows, every sequence, every table's and index's size and
 * planner statistics. Anything short of the fresh copy's fingerprint, an error or a reset that does not finish, and a
 * fresh copy is opened instead. The starting points are written by the same reset (starting-points.ts), so a fresh
 * copy and a reset one hold the same rows in the same pages.
 *
 * A file's handle (a proxy of the instance) dies with close(): from then on it acts as a closed PGlite, as a copy
 * of its own would, while the instance itself waits for the next file.
 */
import type { PGlite } from '@electric-sql/pglite';

/** What a reset writes back, read from a fresh copy. */
export interface StartingState {
  tables: string[];
  rows: Map<string, Blob>;
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  fingerprint: string;
}

type Runner = Pick<PGlite, 'query' | 'exec'>;

/** Schema objects outside PostgreSQL's own, as one text (names and definitions, no OIDs). */
const SCHEMA = `
WITH rel AS (
  SELECT c.oid, n.nspname, c.relname, c.relkind, c.relpages, c.reltuples, c.relallvisible, c.relrowsecurity
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg\\_%temp%'
)
SELECT concat_ws(E'\\n',
  (SELECT string_agg(format('%s.%s %s %s %s %s %s %s', nspname, relname, relkind, relpages, reltuples, relallvisible,
     relrowsecurity, pg_relation_size(oid)), ',' ORDER BY nspname, relname) FROM rel),
  (SELECT string_agg(format('%s.%s.%s %s %s %s', r.nspname, r.relname, a.attname, format_type(a.atttypid, a.atttypmod),
     a.attnotnull, pg_get_expr(d.adbin, d.adrelid)), ',' ORDER BY r.nspname, r.relname, a.attnum)
   FROM rel r JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
   LEFT JOIN pg_attrdef d ON d.adrelid = r.oid AND d.adnum = a.attnum),
  (SELECT string_agg(format('%s %s %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid)), ','
     ORDER BY c.conrelid::regclass::text, c.conname)
   FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(pg_get_indexdef(i.indexrelid), ',' ORDER BY pg_get_indexdef(i.indexrelid))
   FROM pg_index i JOIN rel r ON r.oid = i.indexrelid),
  (SELECT string_agg(format('%s %s %s', t.tgname, t.tgenabled, pg_get_triggerdef(t.oid)), ',' ORDER BY r.relname, t.tgname)
   FROM pg_trigger t JOIN rel r ON r.oid = t.tgrelid WHERE NOT t.tgisinternal),
  (SELECT string_agg(format('%s.%s(%s) %s', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), md5(p.prosrc)),
     ',' ORDER BY n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
   FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(format('%s %s', enumtypid::regtype, enumlabel), ',' ORDER BY enumtypid::regtype::text, enumsortorder) FROM pg_enum),
  (SELECT string_agg(format('%s %s %s %s %s %s', schemaname, sequencename, increment_by, min_value, max_value, cycle), ','
     ORDER BY schemaname, sequencename) FROM pg_sequences),
  (SELECT string_agg(format('%s %s', polrelid::regclass, polname), ',' ORDER BY polrelid::regclass::text, polname) FROM pg_policy),
  (SELECT string_agg(extname || ' ' || extversion, ',' ORDER BY extname) FROM pg_extension),
  (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%temp%'),
  (SELECT string_agg(rolname, ',' ORDER BY rolname) FROM pg_roles),
  (SELECT string_agg(datname, ',' ORDER BY datname) FROM pg_database),
  (SELECT count(*)::text FROM pg_db_role_setting),
  (SELECT count(*)::text FROM pg_statistic s JOIN rel r ON r.oid = s.starelid),
  (SELECT count(*)::text FROM pg_largeobject_metadata)
) AS schema`;

const TABLES = `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
  WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY schemaname, tablename`;
const SEQUENCES = `SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences ORDER BY schemaname, sequencename`;

async function sequenceValues(pglite: Runner, names: string[]) {
  if (names.length === 0) return [];
  const union = names.map((n) => `SELECT '${n.replaceAll("'", "''")}' AS name, last_value::text, is_called FROM ${n}`);
  const { rows } = await pglite.query<{ name: string; last_value: string; is_called: boolean }>(
    union.join(' UNION ALL '),
  );
  return rows.map((r) => ({ name: r.name, lastValue: r.last_value, isCalled: r.is_called }));
}

/** The schema text, each table's rows (in their order) and each sequence, as one string. */
async function fingerprint(pglite: Runner): Promise<string> {
  const { rows: schema } = await pglite.query<{ schema: string }>(SCHEMA);
  const tables = (await pglite.query<{ name: string }>(TABLES)).rows.map((r) => r.name);
  const parts = [schema[0].schema];
  if (tables.length > 0) {
    const union = tables.map(
      (t) => `SELECT md5(coalesce(string_agg(x::text, E'\\n'), '')) || ' ' || count(*) AS h FROM ${t} x`,
    );
    const { rows } = await pglite.query<{ h: string }>(union.join(' UNION ALL '));
    parts.push(...tables.map((t, i) => `${t} ${rows[i].h}`));
  }
  const sequences = (await pglite.query<{ name: string }>(SEQUENCES)).rows.map((r) => r.name);
  for (const s of await sequenceValues(pglite, sequences)) parts.push(`${s.name} ${s.lastValue} ${s.isCalled}`);
  return parts.join('\n');
}

/** Reads what a reset writes back, from a database at its starting point. */
export async function captureStartingState(pglite: Runner): Promise<StartingState> {
  const tables = (await pglite.query<{ name: string }>(TABLES)).rows.map((r) => r.name);
  const rows = new Map<string, Blob>();
  for (const table of tables) {
    const { blob } = await pglite.query(`COPY ${table} TO '/dev/blob'`);
    if (blob && blob.size > 0) rows.set(table, blob);
  }
  const sequences = await sequenceValues(
    pglite,
    (await pglite.query<{ name: string }>(SEQUENCES)).rows.map((r) => r.name),
  );
  return { tables, rows, sequences, fingerprint: await fingerprint(pglite) };
}

/**
 * Empties every table and writes the starting point's rows back in their order, with triggers and foreign-key checks
 * off (the rows are the starting point's own), then sets every sequence back. Session state goes first.
 */
export async function writeStartingState(pglite: PGlite, state: StartingState): Promise<void> {
  if (pglite.isInTransaction()) await pglite.exec('ROLLBACK');
  await pglite.exec('DISCARD ALL');
  await pglite.exec('SET session_replication_role = replica');
  // Every table at once: PostgreSQL refuses to empty a table another one references unless both go together.
  if (state.tables.length > 0) await pglite.exec(`TRUNCATE ${state.tables.join(', ')}`);
  for (const [table, blob] of state.rows) await pglite.query(`COPY ${table} FROM '/dev/blob'`, [], { blob });
  if (state.sequences.length > 0) {
    const values = state.sequences.map(
      (_, i) => `setval($${3 * i + 1}::regclass, $${3 * i + 2}::bigint, $${3 * i + 3})`,
    );
    await pglite.query(
      `SELECT ${values.join(', ')}`,
      state.sequences.flatMap((s) => [s.name, s.lastValue, s.isCalled]),
    );
  }
  await pglite.exec('DISCARD ALL');
}

/** A reset that has not finished by then is given up (a transaction a file left hanging holds the instance). */
const RESET_BOUND_MS = 10_000;

interface Idle {
  pglite: PGlite;
  state: StartingState;
}

/** The instance of each starting point waiting for this worker's next file, with what its reset writes back. */
const idle = new Map<string, Idle>();
/** Each starting point's state, read from this worker's first fresh copy of it. */
const states = new Map<string, StartingState>();

/** Counts for this worker (read by the reuse test). */
export const reuseCounts = { reused: 0, opened: 0, refused: 0 };

/** The idle instance of `point`, reset and verified; undefined when there is none or it failed its check. */
async function reusable(point: string): Promise<PGlite | undefined> {
  const entry = idle.get(point);
  if (!entry) return undefined;
  idle.delete(point);
  if (entry.pglite.closed) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), RESET_BOUND_MS);
  });
  const reset = (async () => {
    await writeStartingState(entry.pglite, entry.state);
    return (await fingerprint(entry.pglite)) === entry.state.fingerprint;
  })().catch(() => false);
  const exact = await Promise.race([reset, bound]);
  clearTimeout(timer);
  if (exact) return entry.pglite;
  reuseCounts.refused += 1;
  // Not awaited when the reset hangs: the instance is abandoned, not closed under a running statement.
  void reset.then(() => entry.pglite.close()).catch(() => {});
  return undefined;
}

/**
 * A PGlite at `point` for one file: this worker's idle instance, reset and verified, or a fresh copy from `open`.
 * Its close() hands the instance on (or closes it, when another of its point already waits).
 */
export async function leasePglite(point: string, open: () => Promise<PGlite>): Promise<PGlite> {
  let pglite = await reusable(point);
  if (pglite) reuseCounts.reused += 1;
  else {
    pglite = await open();
    reuseCounts.opened += 1;
    if (!states.has(point)) states.set(point, await captureStartingState(pglite));
  }
  const instance = pglite;
  const state = states.get(point)!;
  let closed = false;
  const handBack = async () => {
    if (closed) return;
    closed = true;
    if (instance.closed) return;
    if (idle.has(point)) await instance.close();
    else idle.set(point, { pglite: instance, state });
  };
  return new Proxy(instance, {
    get(target, key) {
      if (key === 'closed') return closed || target.closed;
      if (key === 'close') return handBack;
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (closed) {
        return async () => {
          throw new Error('PGlite is closed');
        };
      }
      return value.bind(target);
    },
  });
}
