import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { runGenerationConformance } from './conformance';
import type { GenerationConformance } from './conformance';
import type { GenerationDeps } from './deps';
import type { ModelPort } from './ports';

/**
 * Runs the generation conformance suite against `model` and stores the result as its
 * capabilities (replacing an older result).
 */
export async function checkModel(deps: GenerationDeps, model: ModelPort): Promise<GenerationConformance> {
  const report = await runGenerationConformance(model, deps.catalog, (schema, value, path) => deps.catalog.validator.issues(schema, value, path));
  deps.repo.saveCapabilities(model.id, 'generation-v1', report.passed, report);
  return report;
}

/**
 * Refuses a model that has not passed conformance (CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED).
 * A model never checked is checked now, once; a stored failure is not retried implicitly
 * (run `cadsight gen check` after fixing the provider).
 */
export async function requireConformantModel(deps: GenerationDeps, model: ModelPort): Promise<void> {
  const stored = deps.repo.capabilities(model.id, 'generation-v1');
  const passed = stored ? stored.passed : (await checkModel(deps, model)).passed;
  if (!passed) {
    throw protocolError(ProtocolErrorCode.modelStructuredOutputUnsupported, `model ${model.id} has not passed the generation conformance suite; run cadsight gen check`, { model: model.id });
  }
}
