/**
 * What counts as a host name the service may connect to on a caller's behalf: a plain DNS name, never an address.
 * Shared by the Web Push endpoint check and the configuration of its allowed hosts.
 */
import { isIP } from 'node:net';

/** One DNS label as parsers agree on it: lower-case letters, digits and inner hyphens, 1-63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/**
 * A last label the WHATWG URL parser reads as (part of) an IPv4 address: `2130706433`, `0x7f`, `0177`. Such a host is
 * an address whatever it looks like, so it is never a name.
 */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/;

/**
 * Why `host` is not a plain DNS host name, or null: an IP literal in any notation (brackets included), `localhost`
 * or a name under it, an empty label, a trailing dot, upper case, or any character outside [a-z0-9-.].
 */
export function hostNameProblem(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) return 'an IP address, not a host name';
  const labels = host.split('.');
  if (host.length > 253 || !labels.every((label) => LABEL.test(label))) return 'not a plain DNS host name';
  if (NUMERIC_LABEL.test(labels[labels.length - 1])) return 'an IP address, not a host name';
  if (labels[labels.length - 1] === 'localhost') return 'localhost, not a host name of a push service';
  return null;
}
