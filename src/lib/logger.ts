/** One JSON line per event on stderr. Never pass tokens, secrets or passwords. */
type Level = 'info' | 'warn' | 'error';
const silent = process.env.LOG_LEVEL === 'silent';

function write(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  if (silent && level !== 'error') return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
}

export const logger = {
  info: (event: string, fields?: Record<string, unknown>) => write('info', event, fields),
  warn: (event: string, fields?: Record<string, unknown>) => write('warn', event, fields),
  error: (event: string, fields?: Record<string, unknown>) => write('error', event, fields),
};
