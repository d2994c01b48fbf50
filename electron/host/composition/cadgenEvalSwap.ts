import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { LATEST_CONFORMANCE, requireConformantModel, type GenerationConformance } from '../../features/cadgen/index';
import { openDatabase } from '../../platform/db/openDatabase';
import type { LlmProviderConfig } from '../../platform/llm/types';
import type { EvalFixture, ScenarioCounts, ScenarioResult } from './cadgenEval';
import { createGenerationRuntime } from './cadgenGeneration';
import { allMigrations } from './migrations';

const NO_COUNTS: ScenarioCounts = { format_rejections: 0, stale_rejections: 0, rejected_candidates: 0, claim_rejections: 0, review_contradictions: 0, precondition_rejections: 0, repeated_fragments: 0, candidate_builds: 0, build_failures: 0, rollbacks: 0, final_reviews: 0, complete_rejections: 0, budget_resumes: 0 };

/**
 * The swapped-endpoint scenario (issue 24.5): a model passes conformance at its endpoint; then the
 * same provider id and model name point at another base URL whose model fails every probe. Run the
 * way `gen run` does (conformance before the run), the new endpoint must be probed again — a
 * record for the old URL is not reused — and the task must refuse to start with
 * CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED, with no model call charged to the task.
 */
export async function runSwappedEndpointScenario(input: { scenario: string; fixture: EvalFixture; repeat: number; good: LlmProviderConfig; swapped: LlmProviderConfig; outDir: string; workerScript: URL }): Promise<ScenarioResult> {
  const started = Date.now();
  const dir = path.join(input.outDir, `${input.scenario}-${input.repeat}`);
  mkdirSync(dir, { recursive: true });
  const { db } = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations });
  const runtime = (config: LlmProviderConfig) => createGenerationRuntime({ db, tasksRoot: path.join(dir, 'tasks'), author: config, reviewer: config, workerScript: input.workerScript });
  try {
    const first = runtime(input.good);
    let original: GenerationConformance;
    try {
      original = await requireConformantModel(first.deps, first.deps.author);
    } finally {
      await first.dispose();
    }
    const gen = runtime(input.swapped);
    try {
      const created = await gen.service.create({ request: input.fixture.request, budget: input.fixture.budget });
      let refusal: unknown = null;
      try {
        await requireConformantModel(gen.deps, gen.deps.author);
        await requireConformantModel(gen.deps, gen.deps.reviewer);
        await gen.service.run(created.task_id);
      } catch (error) {
        refusal = error instanceof AppError ? error.toData() : { code: 'UNEXPECTED', message: (error as Error).message };
      }
      const reprobe = gen.deps.repo.capabilities(gen.deps.author.id, LATEST_CONFORMANCE)?.report as GenerationConformance | undefined;
      const task = gen.service.show(created.task_id).task;
      const usage = gen.deps.repo.usage(created.task_id);
      const reprobed = reprobe !== undefined && reprobe.key.baseUrl !== original.key.baseUrl && reprobe.cost.calls > 0 && !reprobe.passed;
      const passed = (refusal as { code?: string } | null)?.code === 'CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED' && reprobed && original.passed && usage.length === 0 && task.state === 'DRAFTING_REQUIREMENTS';
      return {
        scenario: input.scenario, fixture: input.fixture.id, repeat: input.repeat, passed, state: task.state, expected_state: 'DRAFTING_REQUIREMENTS', failure_reason: task.failure_reason,
        last_error: { refusal, original: { base_url: original.key.baseUrl, mode: original.mode, calls: original.cost.calls }, reprobe: reprobe ? { base_url: reprobe.key.baseUrl, passed: reprobe.passed, calls: reprobe.cost.calls, modes: Object.fromEntries(Object.entries(reprobe.modes).map(([m, o]) => [m, o.status])) } : null },
        task_id: task.task_id, revisions: [], candidates: [], claims: [], counts: NO_COUNTS, usage: task.usage, wall_ms: Date.now() - started,
      };
    } finally {
      await gen.dispose();
    }
  } finally {
    db.close();
  }
}
