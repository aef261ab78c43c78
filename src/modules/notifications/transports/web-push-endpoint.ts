/**
 * Which Web Push endpoints the service POSTs to. A web device's token is a URL the caller chose and the worker sends to
 * it, so one function (`checkWebPushEndpoint`) decides, at registration and again before each send, and the request
 * then goes to the host it checked: nothing re-reads the caller's string with another parser.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { parse as legacyParse } from 'node:url';
import { hostNameProblem } from '../../../lib/host-names.ts';

/** An endpoint that passed the check: the host and path the request is made with, and the URL they spell. */
export interface PushEndpoint {
  host: string;
  /** Path and query, exactly as every parser reads them. */
  path: string;
  /** `https://<host><path>`: what web-push derives the VAPID audience from. */
  href: string;
}

export type EndpointCheck = { ok: true; endpoint: PushEndpoint } | { ok: false; problem: string };

/**
 * The plain form: `https://host[:443]/path[?query]`, lower-case host, and a path and query of RFC 3986 characters
 * that no parser escapes, decodes or stops at (no quote, backslash, braces, space, `#`; `%` only before two hex
 * digits). Anything else is a string parsers may read differently, which is how a host gets smuggled past a check.
 */
const PLAIN_ENDPOINT = /^https:\/\/([a-z0-9.-]+)(?::443)?(\/(?:[A-Za-z0-9\-._~!$&()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)$/;

const NOT_A_URL = "Must be the push subscription's endpoint URL.";
const NOT_PLAIN =
  'The endpoint must be a plain https://host/path URL: a push service host name, no port other than 443, ' +
  'no credentials, and no characters URL parsers read differently.';
const NOT_A_NAME = 'The endpoint must name its push service by host name, not an IP address or localhost.';
const NOT_ALLOWED = 'The endpoint is not on a known push service.';

/**
 * Whether the worker may POST to `endpoint`, and where exactly. Accepted only when the WHATWG URL parser and node's
 * legacy `url.parse` (the one web-push reads endpoints with) read the same host, port and path as the plain form
 * above; the host is a DNS name (never an IP literal in any notation, never localhost) on `allowedHosts` or a
 * subdomain of one of them. What the host resolves to is checked when connecting (`publicAddressLookup`).
 */
export function checkWebPushEndpoint(endpoint: string, allowedHosts: readonly string[]): EndpointCheck {
  let whatwg: URL;
  try {
    whatwg = new URL(endpoint);
  } catch {
    return { ok: false, problem: NOT_A_URL };
  }
  if (whatwg.protocol !== 'https:') return { ok: false, problem: 'The endpoint must be an https URL.' };
  if (whatwg.username || whatwg.password) return { ok: false, problem: 'The endpoint must not carry credentials.' };
  let legacy: ReturnType<typeof legacyParse>;
  try {
    legacy = legacyParse(endpoint);
  } catch {
    return { ok: false, problem: NOT_PLAIN };
  }
  // An address in any parser's reading is refused as such, before the plainness check would call it merely odd.
  for (const host of [whatwg.hostname, legacy.hostname ?? ''])
    if (host && hostNameProblem(host)?.startsWith('an IP address')) return { ok: false, problem: NOT_A_NAME };

  const plain = PLAIN_ENDPOINT.exec(endpoint);
  if (!plain) return { ok: false, problem: NOT_PLAIN };
  const [, host, path] = plain;
  const agree =
    whatwg.hostname === host &&
    whatwg.port === '' &&
    `${whatwg.pathname}${whatwg.search}` === path &&
    legacy.protocol === 'https:' &&
    legacy.auth === null &&
    legacy.hostname === host &&
    (legacy.port === null || legacy.port === '443') &&
    legacy.path === path;
  if (!agree) return { ok: false, problem: NOT_PLAIN };
  if (hostNameProblem(host)) return { ok: false, problem: NOT_A_NAME };
  if (!allowedHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`)))
    return { ok: false, problem: NOT_ALLOWED };
  return { ok: true, endpoint: { host, path, href: `https://${host}${path}` } };
}

/** Addresses no push service has: private, loopback, link-local, shared, reserved, documentation, multicast. */
const NON_PUBLIC_IPV4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const NON_PUBLIC_IPV6: [string, number][] = [
  ['::', 96], // unspecified, loopback and the IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (carries an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (carries an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
];
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of NON_PUBLIC_IPV4) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
  // The same networks through NAT64 (64:ff9b::a.b.c.d); IPv4-mapped ::ffff:a.b.c.d matches the IPv4 rules itself.
  NON_PUBLIC.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
}
for (const [network, prefix] of NON_PUBLIC_IPV6) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP address) is one a push service could have. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * `dns.lookup` that fails when the name resolves to any address a push service could not have. Handed to the
 * connection itself, so the address checked is the address connected to (no second lookup an attacker's DNS could
 * answer differently).
 */
export const publicAddressLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) {
      const refused: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to a private, loopback or link-local address`,
      );
      refused.code = 'ENOTPUBLIC';
      return callback(refused, '', 0);
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};
