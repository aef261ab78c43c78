/** Turns findings into something a person can act on: grouped by target, rule and status, with the smallest example. */
import type { FuzzRequest } from './requests.ts';
import type { Finding, TargetStats } from './run.ts';

export interface Group {
  key: string;
  count: number;
  /** Input classes every failing request of the group shares: the likely culprit. */
  commonTags: string[];
  example: Finding;
  /** The smallest failing request of each target the group hit (a few targets at most). */
  examples: Finding[];
  targets: Map<string, number>;
  frequentTags: string[];
}

/** Classes of content hidden inside a body or URL, found after the fact. */
function contentTags(req: FuzzRequest): string[] {
  const text = `${req.url}\n${req.body ? Buffer.from(req.body).toString('utf8') : ''}`;
  const tags: string[] = [];
  if (/\u0000|\\u0000|%00|%5Cu0000/i.test(text)) tags.push('content:NUL');
  if (
    /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i.test(text) ||
    /\ufffd|%ED%A0|%EF%BF%BD|%5Cud[89a-f]/i.test(text)
  )
    tags.push('content:lone-surrogate');
  if (/1e999|1e20|2147483648|9{30}/i.test(text)) tags.push('content:huge-number');
  return tags;
}

function redact(s: string, secrets: string[]): string {
  let out = s
    .replace(/service_sk_[A-Za-z0-9_]{16}[A-Za-z0-9_-]*/g, 'service_sk_<redacted>')
    .replace(/rt_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}/g, 'rt_<redacted>')
    .replace(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g, '<jwt>');
  for (const secret of secrets) if (secret) out = out.split(secret).join('<jwt-secret>');
  return out;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;
}

export function describeRequest(req: FuzzRequest, secrets: string[]): string {
  const auth = req.tags.find((t) => t.startsWith('auth:'));
  const headers = { ...req.headers };
  if (headers.authorization !== undefined) headers.authorization = `<${auth ?? 'auth'}>`;
  const body = req.body ? Buffer.from(req.body).toString('utf8') : undefined;
  return [
    `${req.method} ${clip(redact(req.url, secrets), 300)}`,
    `headers: ${clip(redact(JSON.stringify(headers), secrets), 300)}`,
    body === undefined ? 'body: (none)' : `body: ${clip(redact(JSON.stringify(body), secrets), 600)}`,
    `input classes: ${[...req.tags, ...contentTags(req)].join(', ')}`,
  ].join('\n    ');
}

/**
 * The input class behind a failure, so distinct defects land in distinct groups: the credential when a working one
 * makes the failure go away, else hostile content in the body or URL.
 */
function causeOf(f: Finding): string {
  if (f.blamedCredential) return f.blamedCredential;
  const parts = f.violation.cause ? [f.violation.cause] : [];
  // Leaked internal text is the same sentence whatever else the request carried.
  if (f.violation.rule.startsWith('internal text')) return parts.join(' + ');
  if (f.blamedContent !== undefined) {
    if (f.blamedContent) parts.push(f.blamedContent);
  } else parts.push(...contentTags(f.request).filter((t) => t !== 'content:huge-number'));
  return parts.join(' + ');
}

/**
 * Groups by rule, status and cause across targets (one credential defect shows once, with every route it hits);
 * failures with no recognisable cause stay per target.
 */
export function groupFindings(stats: TargetStats[]): Group[] {
  const groups = new Map<string, Finding[]>();
  for (const s of stats) {
    for (const f of s.findings) {
      const cause = causeOf(f);
      const key = `${f.violation.rule} | ${f.response.status} | ${cause || f.request.target}`;
      groups.set(key, [...(groups.get(key) ?? []), f]);
    }
  }
  const size = (f: Finding) => f.request.url.length + (f.request.body?.length ?? 0);
  return [...groups.entries()]
    .map(([key, findings]) => {
      const tagSets = findings.map((f) => new Set([...f.request.tags, ...contentTags(f.request)]));
      const commonTags = [...tagSets[0]].filter((t) => tagSets.every((s) => s.has(t)));
      const example = findings.reduce((a, b) => (size(b) < size(a) ? b : a));
      const targets = new Map<string, number>();
      for (const f of findings) targets.set(f.request.target, (targets.get(f.request.target) ?? 0) + 1);
      const counts = new Map<string, number>();
      for (const set of tagSets) for (const tag of set) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      const frequentTags = [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([tag, n]) => `${tag} ×${n}`);
      const perTarget = new Map<string, Finding>();
      for (const f of findings) {
        const best = perTarget.get(f.request.target);
        if (!best || size(f) < size(best)) perTarget.set(f.request.target, f);
      }
      const examples = [...perTarget.values()].filter((f) => f !== example).slice(0, 4);
      return { key, count: findings.length, commonTags, example, examples, targets, frequentTags };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}

export function describeGroup(g: Group, secrets: string[]): string {
  const e = g.example;
  return [
    `✗ ${g.key}  ×${g.count}`,
    `  on: ${[...g.targets.entries()].map(([t, n]) => `${t} ×${n}`).join('; ')}`,
    `  common input classes: ${g.commonTags.join(', ') || '(none shared)'}`,
    ...(g.commonTags.length ? [] : [`  most frequent input classes: ${g.frequentTags.join(', ')}`]),
    `  why: ${clip(redact(e.violation.detail, secrets), 400)}`,
    `  smallest example:\n    ${describeRequest(e.request, secrets)}`,
    `  answer: ${e.response.status} ${clip(redact(e.response.text, secrets), 400)}`,
    ...g.examples.map(
      (x) =>
        `  also on ${x.request.target}:\n    ${describeRequest(x.request, secrets)}\n    answer: ${x.response.status} ${clip(redact(x.response.text, secrets), 200)}`,
    ),
  ].join('\n');
}
