/** Sends generated requests over real HTTP with bounded concurrency and judges every answer. */
import type { FuzzRequest } from './requests.ts';
import type { FuzzResponse, OracleContext, Verdict, Violation } from './oracle.ts';

export interface Finding {
  request: FuzzRequest;
  response: FuzzResponse;
  violation: Violation;
  /** The credential tag when the same request with a working session does not fail the same way. */
  blamedCredential?: string;
}

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

async function send(baseUrl: string, req: FuzzRequest): Promise<FuzzResponse | 'unsent' | Error> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${req.url}`, { method: req.method, headers: req.headers, body: req.body as BodyInit | undefined, redirect: 'manual', signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    // undici validates header values before connecting; anything else (reset, hang) is the server's doing.
    const err = error as Error & { cause?: Error };
    if (err.name === 'TypeError' && /header|ByteString|Headers|invalid/i.test(`${err.message} ${err.cause?.message ?? ''}`) && !/fetch failed/.test(err.message)) return 'unsent';
    return err;
  }
  const text = await res.text();
  let json: unknown;
  if (text) { try { json = JSON.parse(text); } catch { json = undefined; } }
  return { status: res.status, headers: Object.fromEntries(res.headers), text, json };
}

export async function runTarget(
  target: string, cases: FuzzRequest[], baseUrl: string, concurrency: number,
  judge: (req: FuzzRequest, res: FuzzResponse, ctx: OracleContext) => Verdict, ctx: OracleContext,
  /** The same request with a working credential or none, to tell a credential defect from a body defect (null: no swap). */
  withCredential: (req: FuzzRequest, which: 'working' | 'none') => FuzzRequest | null,
): Promise<TargetStats> {
  const stats: TargetStats = { target, cases: cases.length, sent: 0, unsent: 0, byStatus: new Map(), fiveHundreds: 0, documented500: [], findings: [], ms: 0, slowest: null, notes: new Map() };
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const req = cases[next++];
      const t0 = performance.now();
      const res = await send(baseUrl, req);
      const took = performance.now() - t0;
      if (!stats.slowest || took > stats.slowest.ms) stats.slowest = { ms: took, req };
      if (res === 'unsent') { stats.unsent += 1; continue; }
      stats.sent += 1;
      if (res instanceof Error) {
        const response: FuzzResponse = { status: 0, headers: {}, text: `${res.name}: ${res.message} ${(res as any).cause?.message ?? ''}`, json: undefined };
        stats.findings.push({ request: req, response, violation: { rule: 'no answer (connection reset or hang)', detail: response.text } });
        continue;
      }
      stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
      if (res.status >= 500) stats.fiveHundreds += 1;
      const verdict = judge(req, res, ctx);
      if (verdict.documented500) stats.documented500.push(req);
      for (const note of verdict.notes ?? []) stats.notes.set(note.replace(/: .*/, ''), (stats.notes.get(note.replace(/: .*/, '')) ?? 0) + 1);
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
    if (!swapped || await stillFails(swapped, finding.violation.rule)) continue;
    const tag = finding.request.tags.find((t) => t.startsWith('auth:'));
    const anonymous = withCredential(finding.request, 'none');
    const anyCaller = tag === 'auth:none' || (anonymous !== null && await stillFails(anonymous, finding.violation.rule));
    finding.blamedCredential = anyCaller ? 'auth:any caller without a working credential' : tag;
  }
  stats.ms = performance.now() - started;
  return stats;
}
