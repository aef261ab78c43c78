/** `CalculatorRow.schedule` pagination: instalments per page by default, and at most. */
export const SCHEDULE_PAGE_DEFAULT = 300; // the whole schedule of a monthly deal up to 25 years
export const SCHEDULE_PAGE_MAX = 1000;

/** The page `schedule(first:)` asks for (the resolver applies the same bounds). */
export function schedulePage(first: number | undefined): number {
  return Math.min(Math.max(first ?? SCHEDULE_PAGE_DEFAULT, 0), SCHEDULE_PAGE_MAX);
}
