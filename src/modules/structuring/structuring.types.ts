/** GraphQL types of "what would it take?" (docs/what-it-would-take.md). */
import { builder } from '../../graphql/builder.ts';
import { described, DocLevelEnum } from '../../graphql/enums.ts';
import { BLOCKER_KINDS, LEVERS, NO_SUGGESTION_REASONS, RANK_BY, STRUCTURING_STATUSES } from './engine.ts';
import type {
  ApprovalStructuringResult,
  StructuringBlockerResult,
  StructuringChangeResult,
  StructuringSuggestionResult,
  WhatWouldItTakeResult,
} from './service.ts';

const StructuringLeverEnum = builder.enumType('StructuringLever', {
  description: 'A structuring lever the broker controls',
  values: described(LEVERS, {
    deposit: 'the deposit, in dollars',
    term: 'the term, in months',
    balloon: 'the balloon, in dollars',
  }),
});

const BlockerKindEnum = builder.enumType('BlockerKind', {
  description: 'What kind of change could meet a blocking criterion',
  values: described(BLOCKER_KINDS, {
    lever: 'a structuring lever (deposit, term, balloon)',
    time: "time: the deal's own ages meet it after eligible_in_months",
    fact: 'a fact no structuring changes (or a question to answer)',
  }),
});

const StructuringStatusEnum = builder.enumType('StructuringStatus', {
  description: 'Why the deal does not get the approval today',
  values: described(STRUCTURING_STATUSES, {
    ruled_out: 'an answer fails a criterion',
    possible: 'some criterion is unanswered',
    unpriced: 'confirmed, but no linked rate bracket prices the deal',
  }),
});

export const StructuringRankByEnum = builder.enumType('StructuringRankBy', {
  description: 'How the cheapest reachable change is ranked',
  values: described(RANK_BY, {
    repayment: 'lowest repayment_min (the default)',
    rate: 'lowest e_min',
  }),
});

const NoSuggestionReasonEnum = builder.enumType('NoSuggestionReason', {
  description: 'Why an approval has no suggestion',
  values: described(NO_SUGGESTION_REASONS, {
    fact: 'a fact blocks it; no structuring changes a fact',
    out_of_bounds: "no change within the broker's bounds makes it confirmed and priced",
  }),
});

export const StructuringBoundsInput = builder.inputType('StructuringBoundsInput', {
  description:
    "The broker's bounds on the levers. Defaults: deposit 0 to max(the deal's, 50% of the GST-inclusive cost); terms 12 to 84 months and the deal's own; the balloon fixed unless a range is given",
  fields: (t) => ({
    max_deposit: t.float({ description: 'The most deposit the client can pay, dollars' }),
    min_term: t.int({ description: 'Shortest term the client accepts, months' }),
    max_term: t.int({ description: 'Longest term the client accepts, months' }),
    min_balloon: t.float({ description: 'Lowest balloon, dollars' }),
    max_balloon: t.float({ description: 'Highest balloon, dollars' }),
  }),
});

const StructuringBlockerRef = builder.objectRef<StructuringBlockerResult>('StructuringBlocker').implement({
  description: 'A criterion that blocks the approval, with what could meet it',
  fields: (t) => ({
    criterion: t.exposeString('criterion', { description: "The approval's (or product. / rate_bracket.) field" }),
    field: t.exposeString('field', { description: 'The request field it reads' }),
    kind: t.field({ type: BlockerKindEnum, description: 'lever, time or fact', resolve: (b) => b.kind }),
    lever: t.field({
      type: StructuringLeverEnum,
      nullable: true,
      description: 'kind lever: the lever that can meet it',
      resolve: (b) => b.lever,
    }),
    deal_value: t.exposeString('deal_value', { nullable: true, description: "The deal's answer; null unanswered" }),
    required: t.exposeString('required', { description: 'What the approval needs' }),
    eligible_in_months: t.exposeInt('eligible_in_months', {
      nullable: true,
      description: "kind time: months until the deal's own figures meet it",
    }),
    sentence: t.exposeString('sentence', { description: 'The blocker in a sentence (client wording)' }),
  }),
});

const StructuringChangeRef = builder.objectRef<StructuringChangeResult>('StructuringChange').implement({
  description: 'One lever changed',
  fields: (t) => ({
    lever: t.field({ type: StructuringLeverEnum, description: 'The lever', resolve: (c) => c.lever }),
    from: t.exposeFloat('from', { description: "The deal's figure (dollars or months)" }),
    to: t.exposeFloat('to', { description: 'The figure that meets the approval' }),
    to_percentage: t.exposeInt('to_percentage', {
      nullable: true,
      description: 'A deposit that is a whole percentage of the cost, as that percentage',
    }),
  }),
});

const StructuringSuggestionRef = builder.objectRef<StructuringSuggestionResult>('StructuringSuggestion').implement({
  description: 'A change that makes the approval confirmed, priced by the same financier',
  fields: (t) => ({
    approval_id: t.exposeInt('approval_id', { description: 'The approval it makes confirmed' }),
    organisation_id: t.exposeInt('organisation_id', { description: 'Its financier' }),
    changes: t.field({ type: [StructuringChangeRef], description: 'Levers changed', resolve: (s) => s.changes }),
    wait_months: t.exposeInt('wait_months', { description: 'Months to wait first (0 when none)' }),
    deposit: t.exposeFloat('deposit', { description: 'The changed deal’s deposit, dollars' }),
    term: t.exposeInt('term', { description: 'The changed deal’s term, months' }),
    balloon: t.exposeFloat('balloon', { description: 'The changed deal’s balloon, dollars' }),
    rate_bracket_id: t.exposeInt('rate_bracket_id', { description: 'The cheapest linked bracket (Rule 13)' }),
    rate_min: t.exposeString('rate_min', {
      nullable: true,
      description: 'Priced nominal rate, percent; null masked',
    }),
    e_min: t.exposeString('e_min', { nullable: true, description: 'Effective annual rate, percent; null masked' }),
    repayment_min: t.exposeString('repayment_min', {
      nullable: true,
      description: 'Each instalment, dollars; null masked',
    }),
    repayment_frequency: t.exposeString('repayment_frequency', { description: 'How often it is paid' }),
    masked: t.exposeBoolean('masked', { description: 'Free tier: figures beyond the cheapest three are hidden' }),
    sentence: t.exposeString('sentence', { description: 'The change in a sentence (client wording)' }),
  }),
});

const ApprovalStructuringRef = builder.objectRef<ApprovalStructuringResult>('ApprovalStructuring').implement({
  description: 'An approval the deal does not get today: its blockers and the smallest change that gets it',
  fields: (t) => ({
    approval_id: t.exposeInt('approval_id', { description: 'The approval' }),
    approval_name: t.exposeString('approval_name', { description: "The approval's name" }),
    organisation_id: t.exposeInt('organisation_id', { description: 'Its financier' }),
    organisation_name: t.exposeString('organisation_name', { description: "The financier's name" }),
    doc_level: t.field({ type: DocLevelEnum, description: 'Documentation burden', resolve: (a) => a.doc_level }),
    status: t.field({ type: StructuringStatusEnum, description: 'Why not today', resolve: (a) => a.status }),
    blockers: t.field({
      type: [StructuringBlockerRef],
      description: 'Every blocking criterion',
      resolve: (a) => a.blockers,
    }),
    suggestion: t.field({
      type: StructuringSuggestionRef,
      nullable: true,
      description: 'The smallest change that makes it confirmed and priced',
      resolve: (a) => a.suggestion,
    }),
    no_suggestion_reason: t.field({
      type: NoSuggestionReasonEnum,
      nullable: true,
      description: 'Why there is no suggestion',
      resolve: (a) => a.no_suggestion_reason,
    }),
  }),
});

export const WhatWouldItTakeResultRef = builder.objectRef<WhatWouldItTakeResult>('WhatWouldItTakeResult').implement({
  description: 'For every approval the deal does not get, what would it take; and the cheapest reachable change',
  fields: (t) => ({
    approvals: t.field({
      type: [ApprovalStructuringRef],
      description: 'With a suggestion first, by the change order; then the rest by doc level and name',
      resolve: (r) => r.approvals,
    }),
    cheapest: t.field({
      type: StructuringSuggestionRef,
      nullable: true,
      description: 'The cheapest reachable change across all financiers within the bounds',
      resolve: (r) => r.cheapest,
    }),
    approval_count: t.exposeInt('approval_count', { description: 'How many approvals are listed' }),
  }),
});
