import { canonicalJson } from '../../domain/canonicalJson';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { runGenerationConformance, schemaSetText } from './conformance';
import type { ConformanceKey, ConformanceOptions, GenerationConformance } from './conformance';
import type { GenerationDeps } from './deps';
import type { ModelPort } from './ports';

/** The record name under which the latest report of a model id is kept for status views. */
export const LATEST_CONFORMANCE = 'generation-latest';

/** The key a model's conformance record is valid for: protocol, base URL, model and the schema-set hash. */
export function conformanceKey(deps: GenerationDeps, model: ModelPort): ConformanceKey {
  const schemaSetHash = deps.sha256(schemaSetText(deps.catalog, (schema, value, path) => deps.catalog.validator.issues(schema, value, path)));
  const endpoint = model.endpoint;
  return { protocol: endpoint?.protocol ?? 'in-process', baseUrl: endpoint?.baseUrl ?? '', model: endpoint?.model ?? model.id, schemaSetHash };
}

const recordName = (deps: GenerationDeps, key: ConformanceKey): string => `generation-v2:${deps.sha256(canonicalJson(key))}`;

/**
 * Runs the generation conformance suite against `model` and stores the result under its key
 * (and as the model id's latest report), replacing an older result for the same key.
 */
export async function checkModel(deps: GenerationDeps, model: ModelPort, options: ConformanceOptions = {}): Promise<GenerationConformance> {
  const key = conformanceKey(deps, model);
  const report = await runGenerationConformance(model, deps.catalog, (schema, value, path) => deps.catalog.validator.issues(schema, value, path), key, options);
  deps.repo.saveCapabilities(model.id, recordName(deps, key), report.passed, report);
  deps.repo.saveCapabilities(model.id, LATEST_CONFORMANCE, report.passed, report);
  if (report.mode) model.useMode?.(report.mode);
  return report;
}

/**
 * Refuses a model that has not passed conformance for its current key
 * (CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED, data: model, key, modes). A key never checked — a new
 * model, a changed base URL or protocol, a changed schema set — is checked now, once; a stored
 * failure is not retried implicitly (run `cadsight gen check` after fixing the provider). On
 * success the port is switched to the mode that passed, so the gateway only uses that mode.
 */
export async function requireConformantModel(deps: GenerationDeps, model: ModelPort): Promise<GenerationConformance> {
  const key = conformanceKey(deps, model);
  const stored = deps.repo.capabilities(model.id, recordName(deps, key));
  const report = stored ? (stored.report as GenerationConformance) : await checkModel(deps, model);
  if (!report.passed || !report.mode) {
    const modes = Object.fromEntries(Object.entries(report.modes ?? {}).map(([mode, outcome]) => [mode, outcome.status]));
    throw protocolError(ProtocolErrorCode.modelStructuredOutputUnsupported, `model ${model.id} at ${key.baseUrl || 'this endpoint'} has not passed the generation conformance suite; run cadsight gen check`, { model: model.id, key, modes });
  }
  model.useMode?.(report.mode);
  return report;
}
