/**
 * Idle keep-alive connections are closed by the client, not by us. Node's default (5 s) races clients and load
 * balancers that reuse a connection at the moment the server drops it: the reused request dies with ECONNRESET.
 * Holding idle connections for 65 s outlasts the usual 60 s idle timeout of load balancers and undici's 4 s, so the
 * other side always closes first. headersTimeout must stay above it (Node's rule). Shutdown is unaffected:
 * server.close() closes idle connections at once.
 */
import type { Server } from 'node:http';

const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function holdIdleConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
