/**
 * The notification categories as clients read them (`available_categories`): label, description and the setting a
 * user who never chose gets. The set is closed (src/lib/vocabulary.ts): never billing, plan, trial or marketing.
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
    description: 'Progress on issue reports you filed about an approval criterion or a pricing figure.',
    default_enabled: true,
  },
  rate_card: {
    label: 'Rate card changes',
    description: "A financier's rate card or approval criteria changed.",
    default_enabled: true,
  },
  account: {
    label: 'Account and security',
    description: 'Sign-ins, API tokens and changes to your account.',
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
