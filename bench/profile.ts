/**
 * `npm run bench -- --profile` (or BENCH_PROFILE=1): a CPU profile of the server's thread while it serves the REST
 * load, written as a .cpuprofile (open it in Chrome DevTools or speedscope), and its self time summarised by area;
 * then what each request allocates, by area and function (V8's sampling heap profiler): GC time follows the bytes
 * allocated, since a young-generation GC has a large fixed cost (docs/performance.md).
 * The inspector profiles only the thread it is attached to: the load generator runs in a worker thread and the
 * PostgreSQL backends in their own processes, so the profile is the server's share of a request.
 */
import type { HeapProfiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export const PROFILE_REQUESTED = process.argv.includes('--profile') || process.env.BENCH_PROFILE === '1';

/** Runs `work` under the CPU profiler (100 us sampling); the profile is written to `file`. */
export async function profiled<T>(file: string, work: () => Promise<T>): Promise<{ result: T; profile: Profile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    writeFileSync(file, JSON.stringify(profile));
    return { result, profile };
  } finally {
    session.disconnect();
  }
}

const GRAPHQL_JIT = 'graphql-jit (its runtime and the queries it compiled)';

/** A function as the summaries name it: its name, and its script's file and line. */
function frameName({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  return `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
}

/** Where a function lives, by its script's path: the areas docs/performance.md talks about. */
function areaOf(url: string, functionName: string): string {
  if (functionName.startsWith('wasm-function')) return 'pg / pglite (driver; PGlite: the database itself)';
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    // libuv's socket writes (responses, and on PostgreSQL the statements' messages): mostly kernel time.
    if (/^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(functionName))
      return 'node (http, streams, net)';
    if (functionName === '(idle)' || functionName === '(program)') return 'idle / outside JavaScript';
    // The functions graphql-jit compiles (`new Function`, so no script): its resolver and list handlers.
    if (/Handler$|__context/.test(functionName)) return GRAPHQL_JIT;
    return 'native (JSON, crypto, regexp, other)';
  }
  const u = url.replace(/\\/g, '/');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1];
  if (pkg) {
    if (
      /^(express|router|body-parser|raw-body|finalhandler|send|serve-static|on-finished|type-is|content-type|qs|iconv-lite|statuses|http-errors|depd|mime|accepts|negotiator|cookie|vary|encodeurl|escape-html|parseurl|path-to-regexp|media-typer)$/.test(
        pkg,
      )
    )
      return 'express and its middleware';
    if (pkg === 'graphql') return 'graphql-js';
    if (/^(graphql-yoga|@whatwg-node\/.*|@envelop\/.*|@graphql-tools\/.*|@graphql-yoga\/.*)$/.test(pkg)) return 'yoga';
    if (/^@pothos\//.test(pkg)) return 'pothos';
    if (/^(@prisma\/.*|prisma|pglite-prisma-adapter)$/.test(pkg)) return 'prisma';
    if (/^(pg|pg-pool|pg-protocol|pg-types|pg-connection-string|@electric-sql\/pglite)$/.test(pkg))
      return 'pg / pglite (driver; PGlite: the database itself)';
    if (pkg === 'jsonwebtoken' || pkg === 'jws' || pkg === 'jwa') return 'jsonwebtoken';
    if (pkg === 'tsx' || pkg === 'esbuild') return 'tsx loader';
    if (pkg === 'graphql-jit') return GRAPHQL_JIT;
    return `other package (${pkg})`;
  }
  if (u.includes('/src/generated/prisma/')) return 'prisma';
  if (/\/src\/modules\/(matrix|pricing|catalogue|deal)\//.test(u))
    return 'our engines (deal, catalogue, matrix, pricing)';
  if (u.includes('/src/rest/')) return 'our REST bridge';
  if (u.includes('/src/graphql/')) return 'our GraphQL layer (context, limits, errors)';
  if (u.includes('/src/modules/')) return 'our services (auth, billing, scenarios, ...)';
  if (u.includes('/src/')) return 'our app (http, lib)';
  if (u.includes('/bench/baseline')) return 'the hand-written baseline (bench/baseline.ts)';
  if (u.includes('/bench/')) return 'bench harness (its PGlite timer; the load generator runs in a worker)';
  if (u.startsWith('node:')) return 'node (http, streams, net)';
  return 'other';
}

/** Self time by area and the heaviest functions, as printable lines; `requests` scales to milliseconds per request. */
export function summariseProfile(profile: Profile, requests: number, top = 15): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // The first sample's delta runs from the profiler's start (the inspector call itself): left out.
  for (let k = 1; k < profile.samples.length; k++)
    self.set(profile.samples[k], (self.get(profile.samples[k]) ?? 0) + (profile.timeDeltas[k] ?? 0));
  const areas = new Map<string, number>();
  const functions = new Map<string, { area: string; us: number }>();
  let busy = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const { functionName, url } = node.callFrame;
    const area = areaOf(url, functionName);
    if (area === 'idle / outside JavaScript' && functionName === '(idle)') continue;
    busy += us;
    areas.set(area, (areas.get(area) ?? 0) + us);
    const key = frameName(node.callFrame);
    const f = functions.get(key) ?? { area, us: 0 };
    f.us += us;
    functions.set(key, f);
  }
  // Samples are taken on wall-clock ticks while the thread runs; on a busy machine a descheduled thread inflates them,
  // so the shares are the figure to read, and ms/req is sampled time, not CPU time.
  const per = (us: number) => `${(us / 1000 / Math.max(1, requests)).toFixed(3)} ms/req`;
  const share = (us: number) => `${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
  const out = [`sampled self time while busy: ${(busy / 1000).toFixed(0)} ms over ${requests} requests (${per(busy)})`];
  out.push('by area:');
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1])) out.push(`  ${share(us)}  ${per(us)}  ${area}`);
  out.push(`top ${top} functions by self time:`);
  for (const [name, f] of [...functions].sort((a, b) => b[1].us - a[1].us).slice(0, top))
    out.push(`  ${share(f.us)}  ${name}  [${f.area}]`);
  return out;
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/**
 * Runs `work` under V8's sampling heap profiler: a sample about every `interval` bytes allocated, keeping the objects
 * GC has since collected, so the profile is what the work allocated, not what it left alive.
 */
export async function allocationProfiled<T>(
  work: () => Promise<T>,
  interval = 1024,
): Promise<{ result: T; head: AllocationNode }> {
  const session = new Session();
  session.connect();
  try {
    // Both flags are V8's (Node 20 and later); @types/node does not list them.
    const sampling = {
      samplingInterval: interval,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as HeapProfiler.StartSamplingParameterType;
    await session.post('HeapProfiler.startSampling', sampling);
    const result = await work();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    return { result, head: profile.head as unknown as AllocationNode };
  } finally {
    session.disconnect();
  }
}

/** Bytes allocated per request, by area and by the function that allocated them, as printable lines. */
export function summariseAllocations(head: AllocationNode, requests: number, top = 10): string[] {
  const areas = new Map<string, number>();
  const functions = new Map<string, { area: string; bytes: number }>();
  let total = 0;
  const visit = (node: AllocationNode) => {
    const { functionName, url } = node.callFrame;
    if (node.selfSize > 0) {
      const area = areaOf(url, functionName);
      total += node.selfSize;
      areas.set(area, (areas.get(area) ?? 0) + node.selfSize);
      const key = frameName(node.callFrame);
      const f = functions.get(key) ?? { area, bytes: 0 };
      f.bytes += node.selfSize;
      functions.set(key, f);
    }
    for (const child of node.children) visit(child);
  };
  visit(head);
  const per = (bytes: number) => `${(bytes / 1024 / Math.max(1, requests)).toFixed(1).padStart(6)} KB/req`;
  const out = [`allocated: ${per(total).trim()} (sampled, objects GC collected included)`, 'by area:'];
  for (const [area, bytes] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, top))
    out.push(`  ${per(bytes)}  ${area}`);
  out.push(`top ${top} functions by bytes allocated (inlined callees count as their caller):`);
  for (const [name, f] of [...functions].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top))
    out.push(`  ${per(f.bytes)}  ${name}  [${f.area}]`);
  return out;
}
