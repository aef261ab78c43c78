/**
 * ABN lookup (POST /calculator/abn-lookup, GraphQL `abnLookup`): checks the ABN locally, asks the Australian
 * Business Register's ABN Lookup JSON service, and turns its answer into the ages the calculator takes.
 *
 * The register is an outbound dependency (design/reliability.md): one bounded call (`abnLookupTimeoutMs` covers
 * connecting, the headers and the body), and every way it can fail (network error, timeout, non-2xx, a body that
 * cannot be parsed or does not validate, an error of its own) becomes UpstreamUnavailableError (502), never a 500.
 * The GUID is a credential: it is never logged and never leaves in an error.
 */
import type { Config } from '../../lib/config.ts';
import { calendarDay, type Clock } from '../../lib/clock.ts';
import {
  DomainError,
  NotConfiguredError,
  NotFoundError,
  UpstreamUnavailableError,
  ValidationError,
} from '../../lib/errors.ts';
import { logger } from '../../lib/logger.ts';
import { checkAbn, isActiveStatus, monthsBetween, parseAbnDetails, type AbnRecord } from './abn.ts';

/** What the endpoint answers. Dates are YYYY-MM-DD; ages are whole months, as the calculator's abn_age / gst_age. */
export interface AbnDetails {
  abn: string;
  entity_name: string;
  entity_type: string | null;
  /** The register's word: "Active" or "Cancelled". */
  abn_status: string;
  /** When the current status took effect (AbnStatusEffectiveFrom), whatever the status. */
  abn_status_effective_from: string;
  business_names: string[];
  state: string | null;
  postcode: string | null;
  /** AbnStatusEffectiveFrom of an active ABN (when it became active); null when the ABN is not active. */
  abn_registered_from: string | null;
  /** Gst: when GST registration took effect; null when not registered for GST. */
  gst_registered_from: string | null;
  /** Whole months from abn_registered_from to today in the service's zone; null when the ABN is not active. */
  abn_age: number | null;
  /** Whole months from gst_registered_from to today in the service's zone; null when not registered for GST. */
  gst_age: number | null;
}

/** The register's answers are a few hundred bytes; anything far larger is not an answer. */
const MAX_BODY_BYTES = 256 * 1024;
const CALLBACK = 'c';

const ABN_NOT_CONFIGURED_MESSAGE =
  'ABN lookup is not available: this service has not been configured to reach the Australian Business Register.';
const ABN_UPSTREAM_MESSAGE =
  'The Australian Business Register could not be reached or answered unexpectedly. Try again shortly.';
const ABN_NOT_FOUND_MESSAGE = 'ABN not found.';

/** The ABN Lookup URL for one ABN. The base is ABN_LOOKUP_URL, e.g. https://abr.business.gov.au. */
export function abnDetailsUrl(baseUrl: string, guid: string, abn: string): string {
  const query = new URLSearchParams({ abn, callback: CALLBACK, guid });
  return `${baseUrl.replace(/\/+$/, '')}/json/AbnDetails.aspx?${query.toString()}`;
}

class UpstreamFailure extends Error {
  constructor(
    readonly reason: string,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw new UpstreamFailure('body_too_large');
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new UpstreamFailure('body_too_large');
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

/** One GET with the timeout around all of it; resolves to the body text or throws UpstreamFailure. */
async function fetchDetails(config: Config, abn: string): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.abnLookupTimeoutMs);
  try {
    const response = await fetch(abnDetailsUrl(config.abnLookupUrl!, config.abnLookupGuid!, abn), {
      method: 'GET',
      headers: { accept: 'application/javascript, application/json;q=0.9, */*;q=0.1' },
      signal: controller.signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new UpstreamFailure('status', { status: response.status });
    }
    return await readBounded(response);
  } catch (error) {
    if (error instanceof UpstreamFailure) throw error;
    if (controller.signal.aborted) throw new UpstreamFailure('timeout', { timeout_ms: config.abnLookupTimeoutMs });
    throw new UpstreamFailure('network', { message: (error as Error)?.message });
  } finally {
    clearTimeout(timer);
  }
}

/** The answer for a record, with ages counted to `today` (YYYY-MM-DD). */
export function detailsOf(record: AbnRecord, today: string): AbnDetails {
  const active = isActiveStatus(record.abnStatus);
  const registeredFrom = active ? record.abnStatusEffectiveFrom : null;
  return {
    abn: record.abn,
    entity_name: record.entityName,
    entity_type: record.entityTypeName,
    abn_status: record.abnStatus,
    abn_status_effective_from: record.abnStatusEffectiveFrom,
    business_names: record.businessNames,
    state: record.state,
    postcode: record.postcode,
    abn_registered_from: registeredFrom,
    gst_registered_from: record.gstFrom,
    abn_age: registeredFrom === null ? null : monthsBetween(registeredFrom, today),
    gst_age: record.gstFrom === null ? null : monthsBetween(record.gstFrom, today),
  };
}

/**
 * Looks an ABN up. Throws ValidationError (400, on `abn`; the register is not called), NotConfiguredError (503),
 * NotFoundError (404) or UpstreamUnavailableError (502).
 */
export async function lookupAbn(deps: { config: Config; clock: Clock }, rawAbn: string): Promise<AbnDetails> {
  const checked = checkAbn(rawAbn);
  if (!checked.ok) throw ValidationError.of('abn', checked.message);
  const { config } = deps;
  if (!config.abnLookupUrl || !config.abnLookupGuid) throw new NotConfiguredError(ABN_NOT_CONFIGURED_MESSAGE);

  const started = Date.now();
  try {
    const body = await fetchDetails(config, checked.abn);
    const answer = parseAbnDetails(body, CALLBACK);
    switch (answer.kind) {
      case 'found':
        return detailsOf(answer.record, calendarDay(deps.clock.now(), config.serviceTimeZone));
      case 'not_found':
        throw new NotFoundError(ABN_NOT_FOUND_MESSAGE);
      // The register's own words are logged (never the GUID, should it ever echo it), not shown to the client.
      case 'refused':
        throw new UpstreamFailure('refused', {
          message: answer.message.split(config.abnLookupGuid).join('[guid]').slice(0, 200),
        });
      case 'invalid':
        throw new UpstreamFailure('invalid_body', { detail: answer.reason });
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const failure =
      error instanceof UpstreamFailure
        ? error
        : new UpstreamFailure('unexpected', { message: (error as Error)?.message });
    logger.warn('abn_lookup.upstream_failed', {
      reason: failure.reason,
      ...failure.detail,
      elapsed_ms: Date.now() - started,
    });
    throw new UpstreamUnavailableError(ABN_UPSTREAM_MESSAGE);
  }
}
