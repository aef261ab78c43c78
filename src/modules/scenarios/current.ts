/**
 * A saved scenario's current figures (column `current`), written by the re-pricing worker each time a catalogue
 * change can affect it (docs/scenarios.md "Re-pricing saved scenarios"). The saved `summary` never changes; this is
 * what the same deal, run by its owner, answers now. Pure: no I/O, no GraphQL.
 */
export interface CurrentCheapest {
  organisation_id: number;
  organisation_name: string;
  /** The approval the row passes (Matrix Calculator); null for a Calculator run, which checks no approval. */
  approval_id: number | null;
  rate_bracket_id: number;
  /** The effective rate, percent a year (e_min). */
  rate: string;
  /** The lowest repayment per instalment (repayment_min). */
  repayment: string;
}

export interface ScenarioCurrent {
  /** The cheapest row the owner would be shown now; null when nothing prices (or the run is refused now). */
  cheapest: CurrentCheapest | null;
  /** Whether the saved cheapest row (its rate bracket) is still offered for the deal; null when none was saved. */
  saved_cheapest_stands: boolean | null;
  /** Current cheapest repayment minus the saved one, signed dollars ("-12.40", "+3.00", "0.00"); null if either is missing. */
  repayment_change: string | null;
  /** What the owner was last told (or the saved figures, before any notification): the next notice compares to it. */
  notified: { repayment: string | null; stands: boolean | null };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored `current` as the API shows it, or null (never re-priced, or another shape). */
export function readCurrent(stored: unknown): ScenarioCurrent | null {
  if (!isObject(stored) || !isObject(stored.notified)) return null;
  const c = stored.cheapest;
  const cheapest =
    isObject(c) &&
    Number.isInteger(c.organisation_id) &&
    typeof c.organisation_name === 'string' &&
    (c.approval_id === null || Number.isInteger(c.approval_id)) &&
    Number.isInteger(c.rate_bracket_id) &&
    typeof c.rate === 'string' &&
    typeof c.repayment === 'string'
      ? (c as unknown as CurrentCheapest)
      : null;
  const stands = typeof stored.saved_cheapest_stands === 'boolean' ? stored.saved_cheapest_stands : null;
  const change = typeof stored.repayment_change === 'string' ? stored.repayment_change : null;
  const n = stored.notified;
  return {
    cheapest,
    saved_cheapest_stands: stands,
    repayment_change: change,
    notified: {
      repayment: typeof n.repayment === 'string' ? n.repayment : null,
      stands: typeof n.stands === 'boolean' ? n.stands : null,
    },
  };
}
