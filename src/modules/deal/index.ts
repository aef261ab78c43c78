/**
 * The deal a broker enters, as one module both the Calculator and the Matrix use: its input shape, the request
 * rules (400s naming the field) and the normalisation into the `Deal` the engines read (deal.ts). This file is the
 * module's public entry; its GraphQL input type is registered by ./graphql.ts.
 */
import { ValidationError } from '../../lib/errors.ts';
import { normaliseDeal, type Deal, type DealRequest } from './deal.ts';
import { dealRequestErrors, type DealSurface } from './validate.ts';

export type { Deal, DealRequest, DealSurface };

/**
 * The request checked against the surface's rules (throws one ValidationError naming every bad field), then
 * normalised. Every default is applied here, once: normaliseDeal's (commercial, monthly, ...), and on the surfaces
 * that price, an unanswered deposit is no deposit. The Matrix alone keeps it unanswered, so that an approval asking
 * for a deposit can list `deposit` as missing.
 */
export function validatedDeal(request: DealRequest, surface: DealSurface, now: Date): Deal {
  const errors = dealRequestErrors(request, surface);
  if (errors.length) throw new ValidationError(errors);
  return normaliseDeal(surface === 'matrix' ? request : { ...request, deposit: request.deposit ?? 0 }, now);
}
export { withGst, withoutGst } from './deal.ts';
