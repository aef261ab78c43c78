/**
 * GET /approvals/options: the values an approval (and a deal's `industry`) may use, each with its label. The values
 * are the vocabulary's lists; only the labels are written here, keyed by value, so a value added to a list without a
 * label fails to compile.
 */
import {
  ANZSIC_DIVISIONS,
  ANZSIC_DIVISION_CODES,
  DOC_LEVELS,
  type DocLevel,
  TRANSACTION_TYPES,
  type TransactionType,
} from '../../lib/vocabulary.ts';

export interface LabelledOption {
  value: string;
  label: string;
}

const DOC_LEVEL_LABELS: Record<DocLevel, string> = {
  low_doc: 'Low doc',
  lite_doc: 'Lite doc',
  full_doc: 'Full doc',
};

const TRANSACTION_TYPE_LABELS: Record<TransactionType, string> = {
  purchase: 'Purchase',
  refinance: 'Refinance',
  sale_hire_back: 'Sale and hire back',
  capital_raise: 'Capital raise',
};

/** Doc levels least onerous first (the Matrix's order); industries by ANZSIC code. */
export function approvalOptions() {
  return {
    doc_levels: DOC_LEVELS.map((value) => ({ value, label: DOC_LEVEL_LABELS[value] })),
    transaction_types: TRANSACTION_TYPES.map((value) => ({ value, label: TRANSACTION_TYPE_LABELS[value] })),
    industries: ANZSIC_DIVISION_CODES.map((value) => ({ value, label: ANZSIC_DIVISIONS[value] })),
  };
}
