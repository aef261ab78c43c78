/** Sends generated requests over real HTTP with bounded concurrency and judges every answer. */
import { request as httpRequest } from 'node:http';
import type { FuzzRequest } from './requests.ts';
import type { FuzzResponse, OracleContext, Verdict, Violation } from './oracle.ts';

export interface Finding {
  request: FuzzRequest;
  response: FuzzResponse;
  violation: Violation;
  /** The credential tag when the same request with a working session does not fail the same way. */
  blamedCredential?: string;
  /** The hostile content whose removal makes the failure go away ('' when removing it does not help). */
  blamedContent?: string;
}

const NUL = [/\u0000/g, /\\u0000/g, /%00/g, /%5Cu0000/gi];
const LONE_SURROGATE = [
  /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})/gi,
  /(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/gi,
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
  /\ufffd/g,
  /%ED%[AB][0-9A-F]%[89AB][0-9A-F]/gi,
  /%EF%BF%BD/gi,
  /%5Cud[89a-f][0-9a-f]{2}/gi,
];

/** The request with every match of `patterns` replaced by a harmless letter, in URL and body alike. */
function without(req: FuzzRequest, patterns: RegExp[]): FuzzRequest {
  const clean = (text: string) => patterns.reduce((t, re) => t.replace(re, 'x'), text);
  const body = req.body ? Buffer.from(clean(Buffer.from(req.body).toString('utf8')), 'utf8') : undefined;
  return { ...req, url: clean(req.url), body };
}

/** Per target, at most this many content probes; further findings of the same kind take the probed answer. */
const CONTENT_PROBES = 60;

export interface TargetStats {
  target: string;
  cases: number;
  sent: number;
  /** The client refused to send it (a header value fetch will not put on the wire). */
  unsent: number;
  byStatus: Map<number, number>;
  fiveHundreds: number;
  documented500: FuzzRequest[];
  findings: Finding[];
  /** Wall-clock time for the target (informational: the summary shows where a run spends its time). */
  ms: number;
  /** Within the contract but worth a look: note -> count (first words of the note as the key). */
  notes: Map<string, number>;
  slowest: { ms: number; req: FuzzRequest } | null;
}

/**
 * One request. A reset on a reused keep-alive socket (the server closed it while idle, a client-side race) is retried
 * once on a fresh attempt; a second failure is the server's.
 */
async function send(baseUrl: string, req: FuzzRequest): Promise<FuzzResponse | 'unsent' | Error> {
  const first = await sendOnce(baseUrl, req);
  return first instanceof Error &&
    /ECONNRESET|socket|other side closed/i.test(`${first.message} ${(first as any).cause?.message ?? ''}`)
    ? sendFresh(baseUrl, req)
    : first;
}

/** The retry: node:http on a connection of its own (no pooled socket the server may have closed meanwhile). */
function sendFresh(baseUrl: string, req: FuzzRequest): Promise<FuzzResponse | Error> {
  return new Promise((resolve) => {
    const r = httpRequest(
      `${baseUrl}${req.url}`,
      { method: req.method, headers: req.headers, agent: false, timeout: 120_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          if (text) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 0, headers, text, json });
        });
        res.on('error', (e) => resolve(e));
      },
    );
    r.on('error', (e) => resolve(e));
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.end(req.body ? Buffer.from(req.body) : undefined);
  });
}

async function sendOnce(baseUrl: string, req: FuzzRequest): Promise<FuzzResponse | 'unsent' | Error> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${req.url}`, {
      method: req.method,
      headers: req.headers,
      body: req.body as BodyInit | undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    // undici validates header values before connecting; anything else (reset, hang) is the server's doing.
    const err = error as Error & { cause?: Error };
    if (
      err.name === 'TypeError' &&
      /header|ByteString|Headers|invalid/i.test(`${err.message} ${err.cause?.message ?? ''}`) &&
      !/fetch failed/.test(err.message)
    )
      return 'unsent';
    return err;
  }
  const text = await res.text();
  let json: unknown;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), text, json };
}

export async function runTarget(
  target: string,
  cases: FuzzRequest[],
  baseUrl: string,
  concurrency: number,
  judge: (req: FuzzRequest, res: FuzzResponse, ctx: OracleContext) => Verdict,
  ctx: OracleContext,
  /** The same request with a working credential or none, to tell a credential defect from a body defect (null: no swap). */
  withCredential: (req: FuzzRequest, which: 'working' | 'none') => FuzzRequest | null,
): Promise<TargetStats> {
  const stats: TargetStats = {
    target,
    cases: cases.length,
    sent: 0,
    unsent: 0,
    byStatus: new Map(),
    fiveHundreds: 0,
    documented500: [],
    findings: [],
    ms: 0,
    slowest: null,
    notes: new Map(),
  };
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const req = cases[next++];
      const t0 = performance.now();
      const res = await send(baseUrl, req);
      const took = performance.now() - t0;
      if (!stats.slowest || took > stats.slowest.ms) stats.slowest = { ms: took, req };
      if (res === 'unsent') {
        stats.unsent += 1;
        continue;
      }
      stats.sent += 1;
      if (res instanceof Error) {
        const response: FuzzResponse = {
          status: 0,
          headers: {},
          text: `${res.name}: ${res.message} ${(res as any).cause?.message ?? ''}`,
          json: undefined,
        };
        stats.findings.push({
          request: req,
          response,
          violation: { rule: 'no answer (connection reset or hang)', detail: response.text },
        });
        continue;
      }
      res.ms = took;
      stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
      if (res.status >= 500) stats.fiveHundreds += 1;
      const verdict = judge(req, res, ctx);
      if (verdict.documented500) stats.documented500.push(req);
      for (const note of verdict.notes ?? [])
        stats.notes.set(note.replace(/: .*/, ''), (stats.notes.get(note.replace(/: .*/, '')) ?? 0) + 1);
      for (const violation of verdict.violations) stats.findings.push({ request: req, response: res, violation });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // Blame: re-send each failing request that used an odd credential with a working one instead; when that passes,
  // once more with no credential at all, to tell "this credential" from "any caller without a working one".
  const stillFails = async (req: FuzzRequest, rule: string) => {
    const res = await send(baseUrl, req);
    return res !== 'unsent' && !(res instanceof Error) && judge(req, res, ctx).violations.some((v) => v.rule === rule);
  };
  for (const finding of stats.findings) {
    const swapped = withCredential(finding.request, 'working');
    if (!swapped || (await stillFails(swapped, finding.violation.rule))) continue;
    const tag = finding.request.tags.find((t) => t.startsWith('auth:'));
    const anonymous = withCredential(finding.request, 'none');
    const anyCaller =
      tag === 'auth:none' || (anonymous !== null && (await stillFails(anonymous, finding.violation.rule)));
    finding.blamedCredential = anyCaller ? 'auth:any caller without a working credential' : tag;
  }
  // Then content: does the failure go away without the NUL bytes, without the lone surrogates, without both?
  const probed = new Map<string, string>();
  let probes = 0;
  for (const finding of stats.findings) {
    if (finding.blamedCredential) continue;
    const text = `${finding.request.url}\n${finding.request.body ? Buffer.from(finding.request.body).toString('utf8') : ''}`;
    const hasNul = NUL.some((re) => new RegExp(re.source, re.flags.replace('g', '')).test(text));
    const hasSurrogate = LONE_SURROGATE.some((re) => new RegExp(re.source, re.flags.replace('g', '')).test(text));
    if (!hasNul && !hasSurrogate) {
      finding.blamedContent = '';
      continue;
    }
    const key = `${finding.violation.rule}|${finding.response.status}|${hasNul}|${hasSurrogate}`;
    if (probes >= CONTENT_PROBES && probed.has(key)) {
      finding.blamedContent = probed.get(key);
      continue;
    }
    probes += 1;
    let blame = '';
    if (hasNul && !(await stillFails(without(finding.request, NUL), finding.violation.rule))) blame = 'content:NUL';
    else if (hasSurrogate && !(await stillFails(without(finding.request, LONE_SURROGATE), finding.violation.rule)))
      blame = 'content:lone-surrogate';
    else if (
      hasNul &&
      hasSurrogate &&
      !(await stillFails(without(finding.request, [...NUL, ...LONE_SURROGATE]), finding.violation.rule))
    )
      blame = 'content:NUL+lone-surrogate';
    finding.blamedContent = blame;
    if (!probed.has(key)) probed.set(key, blame);
  }
  stats.ms = performance.now() - started;
  return stats;
}

/** One target's figures from several runs (a target runs in chunks, the state restored between them). */
export function mergeStats(parts: TargetStats[]): TargetStats {
  const [first, ...rest] = parts;
  const out: TargetStats = {
    ...first,
    byStatus: new Map(first.byStatus),
    notes: new Map(first.notes),
    documented500: [...first.documented500],
    findings: [...first.findings],
  };
  for (const p of rest) {
    out.cases += p.cases;
    out.sent += p.sent;
    out.unsent += p.unsent;
    out.fiveHundreds += p.fiveHundreds;
    out.ms += p.ms;
    for (const [k, v] of p.byStatus) out.byStatus.set(k, (out.byStatus.get(k) ?? 0) + v);
    for (const [k, v] of p.notes) out.notes.set(k, (out.notes.get(k) ?? 0) + v);
    out.documented500.push(...p.documented500);
    out.findings.push(...p.findings);
    if (p.slowest && (!out.slowest || p.slowest.ms > out.slowest.ms)) out.slowest = p.slowest;
  }
  return out;
}
