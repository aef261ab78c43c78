/**
 * Requests Node's HTTP parser refuses before Express sees them (headers or URL too large, malformed request line):
 * answered in JSON with the contract's error shape, like every other refusal, instead of Node's bare status line.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const REFUSALS: Record<string, { status: number; reason: string; error: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    error: 'The request URL or headers are too large.',
  },
};
const MALFORMED = { status: 400, reason: 'Bad Request', error: 'The request is not well-formed HTTP.' };

export function answerClientErrorsInJson(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or timed-out connection cannot be answered; anything already written cannot be amended.
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[err.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ error: refusal.error });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
