/**
 * One process at a time per DATA_DIR. PGlite has no lock of its own: two processes on one data directory each keep
 * their own copy of the database in memory and overwrite each other's files (acknowledged writes were lost that way).
 *
 * The lock is a file created with O_EXCL holding the owner's pid, host and process start time. A lock whose owner is
 * gone (killed, crashed) is stale and taken over at once: on the same host the pid must be alive and, on Linux, have
 * the recorded start time (so a reused pid, common in containers where the service is pid 1, does not keep it). A
 * lock written on another host (a shared volume) cannot be checked and is refused with the file to delete.
 * Taking over a stale lock happens under a short-lived mkdir guard, so two starters cannot both take it.
 */
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'service.lock';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

interface Holder {
  pid: number;
  host: string;
  started: string | null;
  command: string;
  since: string;
}

export interface DataDirLock {
  file: string;
  release(): void;
}

/** Linux: the process's start time in clock ticks since boot (field 22 of /proc/PID/stat); null elsewhere or gone. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(holder: Holder): boolean {
  if (holder.pid === process.pid) return holder.started === processStartTime(process.pid);
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists, under another user.
  }
  const started = processStartTime(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

function readHolder(file: string): Holder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  try {
    const h = JSON.parse(text) as Holder;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? h : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** Owner-only: the directory 0700, and anything already in it loses group/other access (older installs). */
export function restrictToOwner(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      if ((st.mode & 0o077) !== 0) chmodSync(p, st.mode & 0o700);
      for (const entry of readdirSync(p)) walk(path.join(p, entry));
    } else if ((st.mode & 0o077) !== 0) chmodSync(p, st.mode & 0o700);
  };
  walk(dir);
  chmodSync(dir, 0o700);
}

/**
 * Takes the lock on `dir` or throws DataDirLockedError naming the holder. `what` says who holds it ("server",
 * "seed"). Released by release(), and on process exit as a backstop.
 */
export function acquireDataDirLock(dir: string, what: string): DataDirLock {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE);
  const guard = `${file}.takeover`;
  const me: Holder = {
    pid: process.pid,
    host: hostname(),
    started: processStartTime(process.pid),
    command: what,
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener('exit', release);
        const current = readHolder(file);
        if (typeof current === 'object' && current.pid === me.pid && current.since === me.since) unlinkSync(file);
      };
      process.on('exit', release);
      return { file, release };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readHolder(file);
    if (holder === 'missing') continue;
    if (holder === 'unreadable') {
      // Being written this instant, or left half-written by a crash: give a writer a moment, then treat as stale.
      if (Date.now() - safeMtime(file) < 2000)
        throw new DataDirLockedError(`DATA_DIR ${dir} is being locked by another process (${file}); retry`);
    } else if (holder.host !== me.host) {
      throw new DataDirLockedError(
        `DATA_DIR ${dir} is locked by process ${holder.pid} (${holder.command}) on host ${holder.host} since ${holder.since}; if that process is gone, delete ${file}`,
      );
    } else if (isAlive(holder)) {
      throw new DataDirLockedError(
        `DATA_DIR ${dir} is in use by process ${holder.pid} (${holder.command}) since ${holder.since}; stop it first (one process per data directory)`,
      );
    }
    takeOver(file, guard, holder);
  }
  throw new DataDirLockedError(`DATA_DIR ${dir}: could not take the lock ${file}; retry`);
}

function safeMtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Removes a stale lock if it is still the one judged stale; the guard keeps two starters from both removing it. */
function takeOver(file: string, guard: string, stale: Holder | 'unreadable'): void {
  try {
    mkdirSync(guard);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // A guard is held for microseconds; one older than 10 s was left by a process killed inside it.
    if (Date.now() - safeMtime(guard) > 10_000) rmdirSync(guard);
    return;
  }
  try {
    const now = readHolder(file);
    const same =
      stale === 'unreadable'
        ? now === 'unreadable'
        : typeof now === 'object' && now.pid === stale.pid && now.since === stale.since;
    if (same) unlinkSync(file);
  } finally {
    rmdirSync(guard);
  }
}
