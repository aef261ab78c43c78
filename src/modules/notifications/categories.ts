/**
 * The notification categories as clients read them (`available_categories`): label, description and the setting a
 * user who never chose gets. A description says what the producers queue in that category (docs/notifications.md
 * "Producers"), never more. The set is closed (src/lib/vocabulary.ts): never billing, plan, trial or marketing.
 */
import { NOTIFICATION_CATEGORIES, type NotificationCategory } from '../../lib/vocabulary.ts';

export interface NotificationCategoryDescription {
  key: NotificationCategory;
  label: string;
  description: string;
  default_enabled: boolean;
}

const DESCRIPTIONS: Record<NotificationCategory, Omit<NotificationCategoryDescription, 'key'>> = {
  issue_reports: {
    label: 'Issue reports',
    description:
      "Issue reports filed about your organisation's approval criteria or pricing figures, and the resolution of reports you filed.",
    default_enabled: true,
  },
  rate_card: {
    label: 'Rate card changes',
    description:
      'A rate card you follow changed (its products, rate brackets or asset mappings), or a catalogue change moved the cheapest repayment of a scenario you saved.',
    default_enabled: true,
  },
  account: {
    label: 'Account and security',
    description: 'Changes to seats, administrators, invitations and API tokens of your account or organisation.',
    default_enabled: true,
  },
};

export const CATEGORY_DESCRIPTIONS: readonly NotificationCategoryDescription[] = NOTIFICATION_CATEGORIES.map((key) => ({
  key,
  ...DESCRIPTIONS[key],
}));

/** Every category with its effective setting: the user's stored choice, else the default. */
export function effectiveCategories(stored: unknown): Record<NotificationCategory, boolean> {
  const choices = stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  const out = {} as Record<NotificationCategory, boolean>;
  for (const c of CATEGORY_DESCRIPTIONS) {
    const choice = (choices as Record<string, unknown>)[c.key];
    out[c.key] = typeof choice === 'boolean' ? choice : c.default_enabled;
  }
  return out;
}
