/**
 * What a re-pricing writes onto a saved scenario and whether its owner is told (docs/notifications.md "Saved
 * scenarios"). Compared with what the owner was last told (the saved figures until a first notice), so small moves
 * add up until they cross the owner's threshold, and a burst of changes tells the owner once. Pure: no I/O.
 */
import type { CurrentCheapest, ScenarioCurrent, ScenarioSummary } from '../scenarios/index.ts';

export interface RepricingNotice {
  reason: 'moved' | 'withdrawn';
  /** The repayment the owner last knew (saved, or last notified). */
  old_repayment: string | null;
  new_repayment: string | null;
  /** The financier of the cheapest row now, or null when nothing prices the deal now. */
  financier: string | null;
  /** The financier of the saved cheapest row. */
  saved_financier: string | null;
}

const cents = (money: string): number => Math.round(Number(money) * 100);

/** Signed dollars: "+3.00", "-12.40", "0.00". */
function signedMoney(deltaCents: number): string {
  const text = (Math.abs(deltaCents) / 100).toFixed(2);
  return deltaCents > 0 ? `+${text}` : deltaCents < 0 ? `-${text}` : text;
}

export function repricingOutcome(input: {
  saved: ScenarioSummary['cheapest'];
  previous: ScenarioCurrent | null;
  cheapest: CurrentCheapest | null;
  /** Null when nothing was saved to stand. */
  savedStands: boolean | null;
  /** Dollars a period, >= 0. */
  threshold: string;
}): { current: ScenarioCurrent; notice: RepricingNotice | null } {
  const { saved, cheapest, savedStands } = input;
  const told = input.previous?.notified ?? { repayment: saved?.repayment ?? null, stands: saved ? true : null };
  const now = cheapest?.repayment ?? null;
  let notice: RepricingNotice | null = null;
  const base = {
    old_repayment: told.repayment,
    new_repayment: now,
    financier: cheapest?.organisation_name ?? null,
    saved_financier: saved?.financier.name ?? null,
  };
  if (told.stands === true && savedStands === false) {
    notice = { reason: 'withdrawn', ...base };
  } else if (told.repayment !== null && now === null) {
    notice = { reason: 'withdrawn', ...base };
  } else if (told.repayment !== null && now !== null) {
    const delta = Math.abs(cents(now) - cents(told.repayment));
    if (delta > 0 && delta >= cents(input.threshold)) notice = { reason: 'moved', ...base };
  }
  const current: ScenarioCurrent = {
    cheapest,
    saved_cheapest_stands: savedStands,
    repayment_change: saved && now !== null ? signedMoney(cents(now) - cents(saved.repayment)) : null,
    notified: notice ? { repayment: now, stands: savedStands } : told,
  };
  return { current, notice };
}

/** The notification's sentences: client-neutral, the scenario's name, the old and new figure and the financier. */
export function noticeText(name: string, notice: RepricingNotice): { title: string; body: string } {
  const title = `Saved scenario "${name}" changed`;
  const now =
    notice.new_repayment === null
      ? 'Nothing prices this deal now.'
      : `The cheapest repayment is now $${notice.new_repayment} with ${notice.financier}`;
  const was = notice.old_repayment === null ? '' : ` (was $${notice.old_repayment})`;
  if (notice.reason === 'withdrawn' && notice.saved_financier) {
    const tail = notice.new_repayment === null ? ` ${now}` : ` ${now}${was}.`;
    return { title, body: `${notice.saved_financier} no longer offers the saved rate for this deal.${tail}` };
  }
  return { title, body: notice.new_repayment === null ? now : `${now}${was}.` };
}
