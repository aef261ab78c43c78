/** The matrix module's public entry: the approvals engine other modules run (through the request's services). */
import type { evaluateApprovals } from './criteria.ts';

declare module '../../lib/service-context.ts' {
  interface Engines {
    evaluateApprovals: typeof evaluateApprovals;
  }
}
