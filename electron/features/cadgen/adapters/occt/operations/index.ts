import type { OperationExecutor } from './context';
import { executeChamfer, executeFillet } from './blendOperations';
import { executeShell } from './dressUpOperations';
import { executeHole } from './holeOperation';
import { executeMirror, executePatternCircular, executePatternLinear } from './replayOperations';
import { executeCutBlind, executeCutThrough, executeExtrude, executeRevolve } from './sketchOperations';

/** Kernel executors by atomic_id; the contract registry offers only ids present here. */
export const OCCT_EXECUTORS: Readonly<Record<string, OperationExecutor>> = {
  extrude: executeExtrude,
  revolve: executeRevolve,
  extrude_cut_blind: executeCutBlind,
  extrude_cut_through: executeCutThrough,
  hole: executeHole,
  fillet: executeFillet,
  chamfer: executeChamfer,
  shell: executeShell,
  pattern_linear: executePatternLinear,
  pattern_circular: executePatternCircular,
  mirror: executeMirror,
};

export type { ExecutionContext, ExecutionResult, FeatureTool, OperationExecutor } from './context';
