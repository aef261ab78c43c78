/** The tool table: every tool an AI assistant can call at POST /mcp, one definition each. */
import type { ToolDefinition } from './define-tool.ts';
import { runCalculator, runMatrix, runMatrixCalculator, searchAssets, whatWouldItTake } from './compute.ts';
import { listApprovals } from './approvals.ts';
import { listSavedScenarios, saveScenario } from './scenarios.ts';
import { createRateBracket, updateProduct, updateRateBracket } from './rate-cards.ts';

export const tools: ToolDefinition[] = [
  searchAssets,
  runCalculator,
  runMatrix,
  runMatrixCalculator,
  whatWouldItTake,
  listApprovals,
  saveScenario,
  listSavedScenarios,
  updateRateBracket,
  createRateBracket,
  updateProduct,
];
