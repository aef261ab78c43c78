/**
 * The rate-cards module's public entry for other modules (import, the assistant): read a financier's card, make the
 * database equal a card, and run any change as one versioned change (lock, expected-version check, restore point,
 * notification, retention). Its GraphQL registrations are in ./graphql.ts; the card's shape is ./card.ts.
 */
export type { AssetMappingCard, RateCard } from './card.ts';
export { RateCardVersionConflictError } from './errors.ts';
export { readAssetMappings, readRateCard, replaceRateCard } from './store.ts';
export {
  BASELINE_REASON,
  RATE_CARD_VERSION_RETENTION,
  cardVersionOf,
  changeRateCard,
  rateCardWriterOf,
} from './versions.ts';
