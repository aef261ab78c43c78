/**
 * Closed-loop HTTP load generator, run in a worker thread so it has its own event loop (and, on a 2-core machine,
 * its own core) while the server under test runs on the main thread.
 *
 * `connections` keep-alive sockets each send one request, wait for the whole answer, and send the next, until
 * `durationMs` has passed or `maxRequests` were sent. Loopback only: any other host is refused.
 * Plain JavaScript (node:http only), so no TypeScript loader is needed inside the worker.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, method, headers, body, bodies, decode, connections, durationMs, maxRequests, samples } = workerData;
// One URL or several (several server processes): connection k sends to targets[k % targets.length].
const targets = (Array.isArray(url) ? url : [url]).map((u) => new URL(u));
for (const target of targets)
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost')
    throw new Error(`load generator: loopback only, not ${target.hostname}`);

const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
// One body for every request, or `bodies`: the k-th request sent carries bodies[k % bodies.length] (with one
// connection, request k is exactly bodies[k]).
const payloads = (bodies ?? [body]).map((b) => {
  const payload = b === undefined ? undefined : Buffer.from(b);
  return { payload, headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) } };
});

/** CPU milliseconds this thread has used (Linux; NaN elsewhere): utime + stime, in 10 ms ticks. */
function threadCpuMs() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
const cpuAtStart = threadCpuMs();

let sent = 0;
let completed = 0;
let failed = 0;
let firstFailure = null;
const latencies = [];
const started = performance.now();
const deadline = started + durationMs;

function once(target, { payload, headers: requestHeaders }) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.request(target, { method, headers: requestHeaders, agent }, (res) => {
      // `decode`: read the answer as text, as a client about to parse it would (the bytes stay in this thread).
      const chunks = decode ? [] : null;
      res.on('data', (chunk) => chunks?.push(chunk));
      res.on('end', () => {
        if (chunks) Buffer.concat(chunks).toString('utf8');
        latencies.push(performance.now() - t0);
        if (res.statusCode === 200) completed++;
        else {
          failed++;
          firstFailure ??= `HTTP ${res.statusCode}`;
        }
        resolve();
      });
    });
    req.on('error', (error) => {
      failed++;
      firstFailure ??= error.message;
      resolve();
    });
    if (payload) req.end(payload);
    else req.end();
  });
}

async function loop(target) {
  while (performance.now() < deadline && sent < maxRequests) {
    const next = payloads[sent % payloads.length];
    sent++;
    await once(target, next);
  }
}

await Promise.all(Array.from({ length: connections }, (_, k) => loop(targets[k % targets.length])));
const seconds = (performance.now() - started) / 1000;
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q) =>
  latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : NaN;
parentPort.postMessage({
  completed,
  failed,
  firstFailure,
  seconds,
  rps: completed / seconds,
  p50: at(0.5),
  p99: at(0.99),
  clientCpuMs: threadCpuMs() - cpuAtStart,
  // `samples`: every latency, sorted, so a caller can pool several loads into one distribution.
  ...(samples ? { latencies } : {}),
});
