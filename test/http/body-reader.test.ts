/**
 * The body reader (src/http/body-limit.ts `bodyReader`) is body-parser's (express.json, express.raw) plus one rule: a
 * client gone before its body is read settles the read with `request.aborted`. How a body is framed does not change
 * its reading: each body is sent twice over real HTTP to a server using the reader, once with a Content-Length and once
 * chunked, and the two must agree: the same `req.body`, or the same error `type` and `status`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyReader } from '../../src/http/body-limit.ts';

const LIMIT = 2048;
let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  for (const kind of ['json', 'bytes'] as const) {
    const read = bodyReader(LIMIT, kind);
    app.post(`/${kind}`, (req, res) => {
      read(req, res).then(
        () => {
          const body = req.body as unknown;
          res.json({ body: Buffer.isBuffer(body) ? { bytes: body.toString('base64') } : (body ?? null) });
        },
        (error: { type?: string; status?: number }) => res.status(299).json({ type: error.type, status: error.status }),
      );
    });
  }
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Posts `bytes` with a Content-Length, or chunked (no length). */
function post(
  path: string,
  bytes: Buffer,
  headers: Record<string, string>,
  framing: 'length' | 'chunked',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { port, host: '127.0.0.1', path, method: 'POST', agent: false, headers: { ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (framing === 'length') req.setHeader('content-length', String(bytes.length));
    else req.setHeader('transfer-encoding', 'chunked');
    // Split in two writes: a body that arrives in several chunks is joined by both readers.
    const half = bytes.length >> 1;
    req.write(bytes.subarray(0, half));
    req.end(bytes.subarray(half));
  });
}

async function bothReadings(path: string, bytes: Buffer, headers: Record<string, string>) {
  const direct = await post(path, bytes, headers, 'length');
  const general = await post(path, bytes, headers, 'chunked');
  return { direct, general };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

describe('a body sent with a Content-Length reads as the same body chunked', () => {
  const corpus: [string, Buffer][] = [
    ['an object', Buffer.from('{"cost": 55000, "term": 60, "name": "Ute"}')],
    ['an empty body is {}', Buffer.alloc(0)],
    ['whitespace only is malformed', Buffer.from('  \n')],
    ['a bare number (any JSON value)', Buffer.from('42')],
    ['null', Buffer.from('null')],
    ['an array', Buffer.from('[1, "two", {"three": 3}]')],
    ['a leading byte-order mark is dropped', Buffer.from('\uFEFF{"a": 1}')],
    ['malformed JSON', Buffer.from('{"a": ')],
    ['a trailing comma', Buffer.from('{"a": 1,}')],
    ['escapes and astral characters', Buffer.from('{"s": "\\u0000 \\ud83d\\ude00 \u00e9 \ud83d\ude00"}')],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d])],
    ['a lone surrogate escape', Buffer.from('{"s": "\\ud800"}')],
    ['__proto__ as a key', Buffer.from('{"__proto__": {"polluted": true}, "a": 1}')],
  ];
  for (const [name, bytes] of corpus) {
    it(name, async () => {
      const { direct, general } = await bothReadings('/json', bytes, JSON_HEADERS);
      expect(direct).toEqual(general);
    });
  }

  it('any string of bytes, as JSON and as bytes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json().map((s) => Buffer.from(s)),
          fc.string().map((s) => Buffer.from(s)),
          fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
        ),
        async (bytes) => {
          const asJson = await bothReadings('/json', bytes, JSON_HEADERS);
          expect(asJson.direct).toEqual(asJson.general);
          const asBytes = await bothReadings('/bytes', bytes, { 'content-type': 'application/octet-stream' });
          expect(asBytes.direct).toEqual(asBytes.general);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('each media type reads alike whatever the framing (JSON in UTF-8 only)', () => {
  const types = [
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/json; charset=utf8',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'text/plain',
    'application/vnd.api+json',
  ];
  for (const type of types) {
    it(type, async () => {
      const { direct, general } = await bothReadings('/json', Buffer.from('{"a":"\u00e9"}'), { 'content-type': type });
      expect(direct).toEqual(general);
    });
  }
});

describe('the limit: a body of exactly the limit is read, one byte more is entity.too.large', () => {
  const atLimit = Buffer.from(`{"s":"${'x'.repeat(LIMIT - 8)}"}`);
  it('at the limit', async () => {
    expect(atLimit.length).toBe(LIMIT);
    const { direct, general } = await bothReadings('/json', atLimit, JSON_HEADERS);
    expect(direct.text).toContain('"body":{"s"');
    expect(direct).toEqual(general);
  });
  it('one byte over', async () => {
    const over = Buffer.from(`{"s":"${'x'.repeat(LIMIT - 7)}"}`);
    const { direct, general } = await bothReadings('/json', over, JSON_HEADERS);
    expect(JSON.parse(direct.text)).toEqual({ type: 'entity.too.large', status: 413 });
    expect(direct).toEqual(general);
  });
});

describe('a client that stops sending mid-body settles the read (no request left waiting)', () => {
  /** The reader's outcome when the client leaves `readAfterMs` after the request's start (headers and half a body). */
  const outcomeOfAbort = (readAfterMs: number) =>
    new Promise<{ type?: string; status?: number }>((resolve) => {
      const app = express();
      const read = bodyReader(LIMIT, 'json');
      app.post('/json', (req, res) => {
        setTimeout(() => {
          read(req, res).then(
            () => resolve({}),
            (error: { type?: string; status?: number }) => resolve({ type: error.type, status: error.status }),
          );
        }, readAfterMs);
      });
      const lone = app.listen(0, '127.0.0.1', () => {
        const req = http.request({
          port: (lone.address() as AddressInfo).port,
          host: '127.0.0.1',
          path: '/json',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': '100' },
        });
        req.on('error', () => {});
        req.write('{"a": 1');
        setTimeout(() => {
          req.destroy();
          setTimeout(() => lone.close(), 50);
        }, 50);
      });
    });
  it('while the body is being read: the reader rejects with request.aborted', async () => {
    expect(await outcomeOfAbort(0)).toEqual({ type: 'request.aborted', status: 400 });
  });
  it('before the body is read (while credentials are judged): the reader rejects at once', async () => {
    expect(await outcomeOfAbort(150)).toEqual({ type: 'request.aborted', status: 400 });
  });
});
