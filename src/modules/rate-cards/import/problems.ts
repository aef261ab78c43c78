/**
 * What is wrong with an import file: every problem found, each at its location ("line 7, column base_min" in a CSV
 * file, "rate_brackets[3].base_min" in a JSON file, "file" for the whole file). Reported together, so a financier
 * fixes the file once; capped (IMPORT_LIMITS.maxProblems) so a file that is wrong everywhere costs little to answer.
 */
import { ValidationError } from '../../../lib/errors.ts';

/** Bounds on what an import may cost us, whoever sends it. Documented in docs/rate-card-import.md. */
export const IMPORT_LIMITS = {
  /** UTF-8 bytes of the file's content (the request body limit, MAX_BODY_BYTES, applies first). */
  maxBytes: 1_048_576,
  maxProducts: 500,
  maxBrackets: 5_000,
  /** Characters in a name, a key or any other text cell. */
  maxTextLength: 200,
  /** Columns in a CSV header. */
  maxColumns: 64,
  /** Problems listed in one answer; beyond it, one "file" entry says how many more there were. */
  maxProblems: 100,
} as const;

const REFUSED = 'The file was refused; nothing was written.';

export class Problems {
  private readonly byLocation = new Map<string, string[]>();
  private count = 0;

  add(location: string, message: string): void {
    this.count++;
    if (this.count > IMPORT_LIMITS.maxProblems) return;
    const list = this.byLocation.get(location);
    if (list) {
      if (!list.includes(message)) list.push(message);
    } else this.byLocation.set(location, [message]);
  }

  get any(): boolean {
    return this.count > 0;
  }

  /** The problems as one ValidationError: field = location, in the order found. */
  toError(): ValidationError {
    // CSV locations in line order (a row's parse problems and its field problems are found in different passes).
    const lineOf = (location: string) => Number(/^line (\d+)/.exec(location)?.[1] ?? Number.POSITIVE_INFINITY);
    const list = [...this.byLocation]
      .map(([field, messages], found) => ({ field, messages, found }))
      .sort((a, b) => lineOf(a.field) - lineOf(b.field) || a.found - b.found)
      .map(({ field, messages }) => ({ field, messages }));
    if (this.count > IMPORT_LIMITS.maxProblems) {
      const more = this.count - IMPORT_LIMITS.maxProblems;
      const file = list.find((e) => e.field === 'file');
      const message = `and ${more} more ${more === 1 ? 'problem' : 'problems'} not listed`;
      if (file) file.messages.push(message);
      else list.push({ field: 'file', messages: [message] });
    }
    return new ValidationError(list, REFUSED);
  }
}

/** Text a stored name can hold: no NUL, no unpaired surrogate (PostgreSQL and JSON cannot store them). */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text))
    return 'must not contain unpaired surrogate characters';
  return null;
}

/** Line and column (both from 1) of a character offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Refuses the whole content before any parsing: size, and characters nothing downstream can store. */
export function checkContent(content: string, problems: Problems): boolean {
  if (Buffer.byteLength(content, 'utf8') > IMPORT_LIMITS.maxBytes) {
    problems.add('file', `must be at most ${IMPORT_LIMITS.maxBytes.toLocaleString('en-AU')} bytes`);
    return false;
  }
  if (content.trim() === '') {
    problems.add('file', 'is empty');
    return false;
  }
  const bad = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(content);
  if (bad) {
    const { line, column } = lineAndColumn(content, bad.index);
    problems.add(
      `line ${line}`,
      `character ${column} ${bad[0] === '\u0000' ? 'is a NUL character' : 'is an unpaired surrogate'}, which cannot be stored`,
    );
    return false;
  }
  return true;
}
