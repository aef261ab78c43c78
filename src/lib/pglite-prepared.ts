/**
 * PGlite with prepared statements, for Prisma's PGlite adapter.
 *
 * The adapter runs every statement through `PGlite.query()`, which enters the WebAssembly module six times (Parse,
 * Describe, Bind, Describe, Execute, Sync, one call each) and parses and plans the text every time. This client keeps
 * `query()`'s contract (same mutexes, same parameter serialisers, same result parsing, same errors, same file sync) and
 * changes only the messages:
 *
 * - a text seen before is a **named prepared statement**: one call per run (Bind + Execute + Sync; its columns were
 *   described when it was parsed), and PostgreSQL reuses its plan;
 * - a text seen for the first time (or past the name limit) is parsed unnamed: two calls (Parse + Describe + Sync, to
 *   learn the parameter types the serialisers need, then the run).
 *
 * Naming follows the PostgreSQL pool's rule (`preparedStatementNames` in db.ts): named on the second use, at most
 * `max` names. Figures: docs/performance.md.
 *
 * Only PGlite's public API: `execProtocol` (the wire messages), `runExclusive` (no other statement enters the module
 * meanwhile), `transaction`, `syncToFs`, `serializers`/`parsers`, `closed`. `runExclusive` does not wait for an open
 * transaction as `query()` does, so this client orders its own: a statement outside a transaction waits for the
 * transaction this client has open. Everything the app sends to the instance goes through this client (db.ts).
 */
import { type PGlite, parse as pgliteParse, protocol, type Results, types } from '@electric-sql/pglite';

type QueryOptions = Parameters<PGlite['query']>[2];
type Transaction = Parameters<Parameters<PGlite['transaction']>[0]>[0];

/** What the adapter uses of a PGlite instance: `query`, `exec`, `transaction`. */
export type PreparedPglite = Pick<PGlite, 'query' | 'exec' | 'transaction'>;

interface Statement {
  /** '' for the unnamed statement. */
  name: string;
  /** Parameter type OIDs, as PostgreSQL inferred them (the serialisers are chosen by them). */
  paramTypes: number[];
  /**
   * The result's columns, from the statement's own description: a run then needs no Describe of its own. Shared by
   * every result of the statement (read-only, as the adapter uses it).
   */
  fields: readonly Field[];
}

/** PostgreSQL's codes for a named statement that no longer fits its text or no longer exists. */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

type Parsers = NonNullable<Parameters<typeof types.parseType>[2]>;

/** The backend messages a run's result is read from (PGlite's protocol parser builds them). */
interface Field {
  name: string;
  dataTypeID: number;
}

type BackendMessage =
  | { name: 'rowDescription'; fields: { name: string; dataTypeID: number }[] }
  | { name: 'dataRow'; fields: (string | null)[] }
  | { name: 'commandComplete'; text: string }
  | { name: string };

/**
 * One run's result, as PGlite's `parseResults(...)[0]` builds it (first command's fields, rows and affected rows),
 * without its per-call merge of every type parser (a spread of every parser entry on each statement, a visible share
 * of a warm request's time): the merged table is made once per parser set (`parsersFor`).
 */
function resultOf(
  messages: BackendMessage[],
  parsers: Parsers,
  arrayRows: boolean,
  described: readonly Field[],
): Results<never> {
  let fields = described as Field[];
  const rows: unknown[] = [];
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      fields = (message as { fields: { name: string; dataTypeID: number }[] }).fields.map((f) => ({
        name: f.name,
        dataTypeID: f.dataTypeID,
      }));
    } else if (message.name === 'dataRow') {
      const cells = (message as { fields: (string | null)[] }).fields;
      if (arrayRows) rows.push(cells.map((cell, i) => types.parseType(cell, fields[i].dataTypeID, parsers)));
      else {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < cells.length; i++)
          row[fields[i].name] = types.parseType(cells[i], fields[i].dataTypeID, parsers);
        rows.push(row);
      }
    } else if (message.name === 'commandComplete') {
      return {
        rows,
        fields,
        affectedRows: affectedRowsOf((message as { text: string }).text),
      } as unknown as Results<never>;
    }
  }
  // No command completed (PGlite answers the same empty result).
  return { rows: [], fields: [], affectedRows: 0 } as unknown as Results<never>;
}

/** Rows a command tag reports ("INSERT 0 3", "UPDATE 2"); 0 for a SELECT, as PGlite counts them. */
function affectedRowsOf(tag: string): number {
  const words = tag.split(' ');
  switch (words[0]) {
    case 'INSERT':
      return Number.parseInt(words[2], 10);
    case 'UPDATE':
    case 'DELETE':
    case 'COPY':
    case 'MERGE':
      return Number.parseInt(words[1], 10);
    default:
      return 0;
  }
}

/** Protocol messages written back to back, as one call into PGlite sends them. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Statement names are unique in the process, so two clients over one PGlite instance never collide. */
let lastName = 0;

export function preparedPglite(pglite: PGlite, max = 100): PreparedPglite {
  const s = protocol.serialize;
  /** The end of the last transaction (or statement outside one) this client started: the next waits for it. */
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const result = last.then(fn);
    last = result.catch(() => {});
    return result;
  };
  const named = new Map<string, Statement>();
  let seenOnce = new Set<string>();

  /** The statement to run `sql` as, parsed now when it has no name yet. Runs under the query mutex. */
  async function statementFor(sql: string): Promise<Statement> {
    const known = named.get(sql);
    if (known) return known;
    let name = '';
    if (named.size < max) {
      if (seenOnce.has(sql)) {
        seenOnce.delete(sql);
        name = `app_${++lastName}`;
      } else {
        if (seenOnce.size >= 10 * max) seenOnce = new Set();
        seenOnce.add(sql);
      }
    }
    const { messages } = await pglite.execProtocol(
      concat([s.parse({ name, text: sql }), s.describe({ type: 'S', name }), s.sync()]),
      { syncToFs: false },
    );
    const described = (messages as BackendMessage[]).find((m) => m.name === 'rowDescription') as
      | { fields: Field[] }
      | undefined;
    const statement: Statement = {
      name,
      paramTypes: pgliteParse.parseDescribeStatementResults(messages as never),
      fields: described ? described.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) : [],
    };
    if (name) named.set(sql, statement);
    return statement;
  }

  // PGlite's parsers with a caller's own on top (the adapter passes one fixed set), merged once per set. PGlite
  // extends its table in place (array types, at start), so the merge is taken after the first statement.
  const merged = new WeakMap<object, Parsers>();
  const parsersFor = (extra: Parsers | undefined): Parsers => {
    if (!extra) return pglite.parsers;
    let table = merged.get(extra);
    if (!table) {
      table = { ...pglite.parsers, ...extra };
      merged.set(extra, table);
    }
    return table;
  };

  async function run(sql: string, params: unknown[], options: QueryOptions, inTransaction: boolean) {
    // A closed module must never be entered (it spins).
    if (pglite.closed) throw new Error('PGlite is closed');
    return pglite.runExclusive(async () => {
      const statement = await statementFor(sql);
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const type = statement.paramTypes[i];
        const serialize = options?.serializers?.[type] ?? pglite.serializers[type];
        return serialize ? serialize(value) : String(value);
      });
      let messages: unknown[];
      try {
        ({ messages } = await pglite.execProtocol(
          concat([s.bind({ statement: statement.name, values }), s.execute({}), s.sync()]),
          { syncToFs: false },
        ));
      } catch (e) {
        // A named statement whose tables changed shape (or that is gone) is parsed again next time.
        if (statement.name && STALE_STATEMENT_CODES.has((e as { code?: string }).code ?? '')) named.delete(sql);
        Object.assign(e as object, { query: sql, params, queryOptions: options });
        throw e;
      }
      // query() syncs the files after a statement outside a transaction; COMMIT syncs a transaction's.
      if (!inTransaction) await pglite.syncToFs();
      return resultOf(
        messages as BackendMessage[],
        parsersFor(options?.parsers as Parsers | undefined),
        options?.rowMode === 'array',
        statement.fields,
      );
    });
  }

  const query = ((sql: string, params: unknown[] = [], options?: QueryOptions) =>
    inTurn(() => run(sql, params, options, false))) as PGlite['query'];

  return {
    query,
    exec: (sql, options) => pglite.exec(sql, options),
    transaction: (fn) =>
      inTurn(() =>
        pglite.transaction((tx) => {
          const prepared: Transaction = Object.create(tx, {
            query: {
              value: async (sql: string, params?: unknown[], options?: QueryOptions) => {
                if (tx.closed) throw new Error('Transaction is closed');
                // A PGlite statement settles without leaving the microtask queue, so a transaction of many statements
                // (an import's) would hold the event loop from its first statement to its last: the loop gets a turn
                // (timers, sockets: /healthz) before each one.
                await new Promise<void>((resolve) => setImmediate(resolve));
                return run(sql, params ?? [], options, true) as Promise<Results<never>>;
              },
            },
          });
          return fn(prepared);
        }),
      ),
  };
}
