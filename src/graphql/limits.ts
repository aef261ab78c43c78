/**
 * Bounds on GraphQL work per request (OWASP API4): aliases multiply metered runs and engine time, depth multiplies
 * loads. Batching is off in Yoga. Limits are deliberately generous for dashboards and tight for abuse.
 */
import { GraphQLError, Kind, type ASTVisitor, type ValidationContext } from 'graphql';

export const MAX_DEPTH = 12;
export const MAX_ALIASES = 15;
/** Root fields that run an engine and consume an allowance: at most one per request. */
export const METERED_ROOT_FIELDS = new Set(['calculate', 'matrix', 'matrixCalculator']);

function limitsRule(context: ValidationContext): ASTVisitor {
  let aliases = 0;
  let depth = 0;
  let metered = 0;
  return {
    Field: {
      enter(node, _key, _parent, _path, ancestors) {
        if (node.alias) aliases += 1;
        const level = ancestors.filter((a: any) => a && a.kind === Kind.FIELD).length + 1;
        depth = Math.max(depth, level);
        if (level === 1 && METERED_ROOT_FIELDS.has(node.name.value)) metered += 1;
      },
    },
    Document: {
      leave() {
        if (depth > MAX_DEPTH) context.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${MAX_DEPTH}.`));
        if (aliases > MAX_ALIASES) context.reportError(new GraphQLError(`${aliases} aliases exceed the limit of ${MAX_ALIASES}.`));
        if (metered > 1) context.reportError(new GraphQLError('Only one calculator or Matrix run is allowed per request.'));
      },
    },
  };
}

export function graphqlLimits() {
  return { onValidate: ({ addValidationRule }: any) => addValidationRule(limitsRule) };
}
