import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildDocument, checkModel, type CdslDocument } from '../../features/cadgen/index';
import { openDatabase } from '../../platform/db/openDatabase';
import type { LlmProviderConfig } from '../../platform/llm/types';
import { createGenerationRuntime } from './cadgenGeneration';
import { allMigrations } from './migrations';

export interface EvalFixture {
  id: string;
  version: number;
  suites: string[];
  request: string;
  budget: Record<string, number>;
  expected_state: string;
  requirements: { statement: string; claims: { claim_kind: string; expected: Record<string, unknown> }[] }[];
}

/** Counters of one run; a failure script states the minimum it must show (e.g. one build failure). */
export interface ScenarioCounts {
  format_rejections: number;
  stale_rejections: number;
  rejected_candidates: number;
  /** Candidates the server rejected for breaking claims (CDSL_CLAIM_VERIFICATION_FAILED), whatever the reviewer said. */
  claim_rejections: number;
  /** Reviews refused because their claim statuses contradicted the server (CDSL_REVIEW_CONTRADICTS_VERIFIER). */
  review_contradictions: number;
  /** Fragments refused by preflight before any build (CDSL_RUNTIME_PRECONDITION_FAILED). */
  precondition_rejections: number;
  /** Fragments refused because the identical fragment was already rejected on the checkpoint. */
  repeated_fragments: number;
  /** Candidate builds the task was charged for. */
  candidate_builds: number;
  /** Candidates the kernel failed to build (typed CDSL_CANDIDATE_BUILD_FAILED). */
  build_failures: number;
  rollbacks: number;
  /** Final reviews (accepted or repair); at most one per revision, else the run fails. */
  final_reviews: number;
  /** complete_task calls refused (the gate is closed after a revision's final review). */
  complete_rejections: number;
  /** Resumes of a BUDGET_EXHAUSTED task with the scenario's larger budget. */
  budget_resumes: number;
}

export interface ScenarioResult {
  scenario: string;
  fixture: string;
  repeat: number;
  passed: boolean;
  state: string;
  expected_state: string;
  failure_reason: string | null;
  last_error: unknown;
  task_id: string;
  revisions: string[];
  candidates: { id: string; status: string }[];
  claims: { kind: string; status: string; message: string }[];
  counts: ScenarioCounts;
  usage: unknown;
  wall_ms: number;
}

/** Loads the versioned fixtures of a suite from resources/evals/cadgen/v1. */
export function loadFixtures(dir: string, suite: string): EvalFixture[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as EvalFixture).filter((f) => f.suites.includes(suite));
}

/** Starts the scripted fixture provider binary (test support, separate process, real HTTP). */
export async function startFixtureProvider(binary: string, fixturesDir: string, fixture: string, faults?: string): Promise<{ config: LlmProviderConfig; child: ChildProcess }> {
  const child = spawn(process.execPath, [binary, '--fixture', fixture, '--dir', fixturesDir, ...(faults ? ['--faults', faults] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`scripted provider exited with ${code}`)));
  });
  const { apiBaseUrl } = JSON.parse(line) as { apiBaseUrl: string };
  return { child, config: { id: 'chat', protocol: 'chat-completions', baseUrl: apiBaseUrl, model: 'scripted-model', getApiKey: () => undefined } };
}

/**
 * Runs one scenario in an isolated database and task root: conformance, task to its end state,
 * then the fixture's own claims re-verified on the final revision with the real verifiers
 * (independent of the claims the author wrote).
 */
export async function runScenario(input: { scenario: string; fixture: EvalFixture; repeat: number; author: LlmProviderConfig; reviewer: LlmProviderConfig; outDir: string; workerScript: URL; expectState?: string; minCounts?: Partial<ScenarioCounts>; maxCounts?: Partial<ScenarioCounts>; raise?: Record<string, number> }): Promise<ScenarioResult> {
  const started = Date.now();
  const dir = path.join(input.outDir, `${input.scenario}-${input.repeat}`);
  mkdirSync(dir, { recursive: true });
  const { db } = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations });
  const gen = createGenerationRuntime({ db, tasksRoot: path.join(dir, 'tasks'), author: input.author, reviewer: input.reviewer, workerScript: input.workerScript });
  try {
    for (const model of [gen.deps.author, gen.deps.reviewer]) {
      const report = await checkModel(gen.deps, model);
      if (!report.passed) throw Object.assign(new Error('conformance failed'), { code: 'CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED', report });
    }
    const created = await gen.service.create({ request: input.fixture.request, budget: input.fixture.budget });
    let task = await gen.service.run(created.task_id);
    // A task out of budget continues once with the scenario's explicit larger budget (gen resume --budget).
    let budgetResumes = 0;
    if (input.raise && task.state === 'FAILED' && task.failure_reason === 'BUDGET_EXHAUSTED') {
      budgetResumes += 1;
      task = await gen.service.resume(task.task_id, {}, input.raise);
    }
    const snapshot = gen.service.show(task.task_id);
    const head = snapshot.revisions.find((r) => r.revision_id === task.head_revision);
    const fixtureClaims = input.fixture.requirements.flatMap((r) => r.claims).map((c, i) => ({ id: `fixture_${i + 1}`, kind: c.claim_kind, expected: c.expected }));
    const claims = head ? (await buildDocument({ catalog: gen.deps.catalog, runtime: gen.deps.runtime }, { document: JSON.parse(head.document_json) as CdslDocument, claims: fixtureClaims, stage: 'final' })).claims : [];
    const ledger = gen.service.ledger(task.task_id);
    const invocations = gen.deps.repo.invocations(task.task_id);
    const expected = input.expectState ?? input.fixture.expected_state;
    const claimsOk = expected !== 'COMPLETED' || (claims.length > 0 && claims.every((c) => c.status === 'pass'));
    const finals = ledger.filter((e) => e.event === 'completed' || e.event === 'final_rejected').map((e) => String(e.revision_id));
    const counts: ScenarioCounts = {
      format_rejections: invocations.filter((i) => i.code === 'CDSL_AUTHOR_FORMAT_INVALID').length,
      stale_rejections: invocations.filter((i) => i.code === 'CDSL_STALE_WORKING_HEAD').length,
      rejected_candidates: snapshot.candidates.filter((c) => c.status !== 'accepted').length,
      claim_rejections: ledger.filter((e) => e.event === 'review_rejected' && e.code === 'CDSL_CLAIM_VERIFICATION_FAILED').length,
      review_contradictions: invocations.filter((i) => i.code === 'CDSL_REVIEW_CONTRADICTS_VERIFIER').length,
      precondition_rejections: invocations.filter((i) => i.code === 'CDSL_RUNTIME_PRECONDITION_FAILED').length,
      repeated_fragments: invocations.filter((i) => i.code === 'CDSL_FRAGMENT_ALREADY_REJECTED').length,
      candidate_builds: task.usage.candidateBuilds,
      build_failures: snapshot.candidates.filter((c) => c.status === 'build_failed').length,
      rollbacks: ledger.filter((e) => e.event === 'rolled_back').length,
      final_reviews: finals.length,
      complete_rejections: invocations.filter((i) => i.tool === 'complete_task' && i.status === 'rejected').length,
      budget_resumes: budgetResumes,
    };
    const oneFinalPerRevision = new Set(finals).size === finals.length;
    const minimaOk = Object.entries(input.minCounts ?? {}).every(([k, min]) => counts[k as keyof ScenarioCounts] >= (min ?? 0)) && Object.entries(input.maxCounts ?? {}).every(([k, max]) => counts[k as keyof ScenarioCounts] <= (max ?? Infinity));
    return {
      scenario: input.scenario, fixture: input.fixture.id, repeat: input.repeat, passed: task.state === expected && claimsOk && oneFinalPerRevision && minimaOk, state: task.state, expected_state: expected, failure_reason: task.failure_reason, last_error: task.last_error,
      task_id: task.task_id, revisions: snapshot.revisions.map((r) => r.revision_id), candidates: snapshot.candidates.map((c) => ({ id: c.candidate_id, status: c.status })),
      claims: claims.map((c) => ({ kind: c.kind, status: c.status, message: c.message })),
      counts,
      usage: task.usage, wall_ms: Date.now() - started,
    };
  } finally {
    await gen.dispose();
    db.close();
  }
}

/** Writes report.json and manifest.json of one eval run. */
export function writeReport(outDir: string, report: Record<string, unknown>, results: ScenarioResult[]): void {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'report.json'), JSON.stringify({ ...report, results }, null, 2));
  writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify({ runs: results.map((r) => ({ scenario: r.scenario, repeat: r.repeat, task_id: r.task_id, db: `${r.scenario}-${r.repeat}/cadsight.db`, tasks: `${r.scenario}-${r.repeat}/tasks/${r.task_id}` })) }, null, 2));
}

export const defaultFixturesDir = (fromFile: string): string => path.resolve(path.dirname(fileURLToPath(fromFile)), '../../resources/evals/cadgen/v1');
