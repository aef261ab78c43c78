/**
 * What a scenario list shows of a run (docs/team.md "Scenario summaries"): the asset, the
 * amount and term asked for, and the cheapest result at the time of the run. Written once, by the statement that
 * records the run (record_run), and never recomputed: a later catalogue change does not rewrite history.
 * Pure: no I/O, no GraphQL.
 */
import { isOneOf, REPAYMENT_FREQUENCIES, type RepaymentFrequency } from '../../lib/vocabulary.ts';

export interface ScenarioSummary {
  asset: { id: number; name: string };
  /** The asset cost as entered, to the cent ("55000.00"). */
  amount: string;
  /** Months; null when the run did not need one. */
  term: number | null;
  /** The cheapest priced result, or null (an Approval Matrix run prices nothing; or nothing priced). */
  cheapest: {
    financier: { id: number; name: string };
    product: { id: number; name: string };
    rate_bracket_id: number;
    /** The lowest repayment the card offers for the deal (its repayment_min), per instalment. */
    repayment: string;
    repayment_frequency: RepaymentFrequency;
  } | null;
}

/** The fields of a result row a summary takes its cheapest result from. */
export interface CheapestRow {
  organisation_id: number;
  organisation_name: string;
  product_id: number;
  product_name: string;
  rate_bracket_id: number;
  repayment_min: string | null;
}

export function scenarioSummary(
  deal: { asset_value: number; cost: number; term: number | null; repayment_frequency: RepaymentFrequency },
  assetName: string,
  cheapest: CheapestRow | undefined,
): ScenarioSummary {
  return {
    asset: { id: deal.asset_value, name: assetName },
    amount: deal.cost.toFixed(2),
    term: deal.term,
    cheapest:
      cheapest && cheapest.repayment_min !== null
        ? {
            financier: { id: cheapest.organisation_id, name: cheapest.organisation_name },
            product: { id: cheapest.product_id, name: cheapest.product_name },
            rate_bracket_id: cheapest.rate_bracket_id,
            repayment: cheapest.repayment_min,
            repayment_frequency: deal.repayment_frequency,
          }
        : null,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNamed = (v: unknown): v is { id: number; name: string } =>
  isObject(v) && Number.isInteger(v.id) && typeof v.name === 'string';

/**
 * A stored summary as the API shows it, or null: rows recorded before summaries existed (null), or in another shape,
 * read as "no summary" rather than failing a whole list.
 */
export function readSummary(stored: unknown): ScenarioSummary | null {
  if (!isObject(stored) || !isNamed(stored.asset) || typeof stored.amount !== 'string') return null;
  if (stored.term !== null && !Number.isInteger(stored.term)) return null;
  const c = stored.cheapest;
  const cheapest =
    isObject(c) &&
    isNamed(c.financier) &&
    isNamed(c.product) &&
    Number.isInteger(c.rate_bracket_id) &&
    typeof c.repayment === 'string' &&
    isOneOf(REPAYMENT_FREQUENCIES, c.repayment_frequency)
      ? (c as ScenarioSummary['cheapest'])
      : null;
  return { asset: stored.asset, amount: stored.amount, term: stored.term as number | null, cheapest };
}
