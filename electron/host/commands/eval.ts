import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AppError } from '../../../shared/errors';
import { defaultFixturesDir, loadFixtures, runScenario, startFixtureProvider, writeReport, type ScenarioCounts, type ScenarioResult } from '../composition/cadgenEval';
import { runSwappedEndpointScenario } from '../composition/cadgenEvalSwap';
import { resolveRoleModel } from '../composition/modelResolution';
import { createPlatformRuntime } from '../composition/platformRuntime';

const USAGE = `Usage:
  cadsight eval offline --suite smoke|release [--out dir] [--repeat n] [--only name,...]
  cadsight eval live --suite smoke|release --require-live [--author provider/model] [--reviewer provider/model] [--out dir]

offline drives the versioned fixtures (resources/evals/cadgen/v1) with the scripted provider
over real HTTP and the real OpenCascade runtime; release also runs every offline failure script,
and repeats each fixture and script 3 times (--repeat n overrides). live uses the configured author/reviewer models; with no
configured or reachable provider it writes LIVE_EVAL_BLOCKED and exits 1 (no skip, no fallback).
Writes report.json + manifest.json under --out (default <data>/offline-evals|live-evals/<run_id>).
Exit code 0 only when every scenario passed.
`;

/** Fault scenarios of the release suite, from the test-support bundle's table (names only here). */
const RELEASE_FAULTS: { name: string; fixture: string; state: string; min?: Partial<ScenarioCounts>; max?: Partial<ScenarioCounts>; budget?: Record<string, number>; raise?: Record<string, number> }[] = [
  { name: 'format_rejection', fixture: 'plate_with_holes', state: 'COMPLETED', min: { format_rejections: 1 } },
  { name: 'unoffered_tool', fixture: 'plate_with_holes', state: 'COMPLETED', min: { format_rejections: 1 } },
  { name: 'stale_head', fixture: 'plate_with_holes', state: 'COMPLETED' },
  { name: 'selector_not_found', fixture: 'plate_with_holes', state: 'COMPLETED' },
  { name: 'precondition_rejection', fixture: 'plate_with_holes', state: 'COMPLETED' },
  { name: 'reviewer_service_failure', fixture: 'plate_with_holes', state: 'WAITING_RETRY' },
  { name: 'transport_exhaustion', fixture: 'plate_with_holes', state: 'WAITING_RETRY' },
  { name: 'candidate_build_failure', fixture: 'chamfered_block', state: 'COMPLETED', min: { build_failures: 1 } },
  { name: 'lenient_wrong_hole_diameter', fixture: 'plate_with_holes', state: 'COMPLETED', min: { claim_rejections: 1 } },
  { name: 'lenient_wrong_thickness', fixture: 'plate_with_holes', state: 'COMPLETED', min: { claim_rejections: 1 } },
  { name: 'reviewer_claims_all_pass', fixture: 'plate_with_holes', state: 'FAILED', min: { review_contradictions: 3 } },
  { name: 'reject_forever', fixture: 'plate_with_holes', state: 'FAILED', min: { repeated_fragments: 1 }, max: { candidate_builds: 4 } },
  { name: 'hole_off_material', fixture: 'flange', state: 'COMPLETED', min: { precondition_rejections: 1 }, max: { build_failures: 0 } },
  { name: 'budget_exhausted_resumed', fixture: 'plate_with_holes', state: 'COMPLETED', budget: { maxAuthorTurns: 8 }, raise: { maxAuthorTurns: 40 }, min: { budget_resumes: 1 } },
  { name: 'complete_twice', fixture: 'plate_with_holes', state: 'COMPLETED', min: { final_reviews: 2, complete_rejections: 1, rollbacks: 1 } },
  // Runs against two providers (see runSwappedEndpointScenario): the task must refuse to start.
  { name: 'swapped_endpoint', fixture: 'plate_with_holes', state: 'DRAFTING_REQUIREMENTS' },
];

function line(r: ScenarioResult): string {
  return `  ${r.passed ? 'PASS' : 'FAIL'} ${`${r.scenario}#${r.repeat}`.padEnd(36)} ${r.state.padEnd(16)} revisions ${r.revisions.length} rejected-candidates ${r.counts.rejected_candidates} format ${r.counts.format_rejections} ${(r.wall_ms / 1000).toFixed(1)} s`;
}

/** `cadsight eval ...`: offline and live end-to-end evaluations of the generation protocol. */
export const evalCommand = {
  name: 'eval',
  summary: 'Evaluate CAD generation end to end: offline (scripted provider) or live (--require-live)',
  async run(args: string[]): Promise<number> {
    let parsed;
    try {
      parsed = parseArgs({ args, options: { suite: { type: 'string' }, out: { type: 'string' }, repeat: { type: 'string' }, only: { type: 'string' }, 'require-live': { type: 'boolean' }, author: { type: 'string' }, reviewer: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    } catch (error) {
      process.stderr.write(`cadsight eval: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    const { values, positionals } = parsed;
    const mode = positionals[0];
    const suite = values.suite;
    if (values.help || (mode !== 'offline' && mode !== 'live') || (suite !== 'smoke' && suite !== 'release')) {
      process.stdout.write(USAGE);
      return values.help ? 0 : 2;
    }
    const platform = createPlatformRuntime({ env: process.env, systemLocale: Intl.DateTimeFormat().resolvedOptions().locale, logName: 'cli.log' });
    const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}_${randomUUID().slice(0, 8)}`;
    const outDir = path.resolve(values.out ?? path.join(platform.layout.root, mode === 'live' ? 'live-evals' : 'offline-evals', runId));
    const fixturesDir = defaultFixturesDir(import.meta.url);
    const workerScript = new URL('./occtWorker.js', import.meta.url);
    const fixtures = loadFixtures(fixturesDir, suite);
    const repeats = values.repeat ? Number(values.repeat) : suite === 'release' ? 3 : 1;
    const results: ScenarioResult[] = [];
    const started = Date.now();
    try {
      if (mode === 'live') {
        if (!values['require-live']) throw new AppError('CDSL_REQUEST_INVALID', 'eval live needs --require-live (live evals never skip)');
        let author;
        let reviewer;
        try {
          author = resolveRoleModel(platform.settings, process.env, 'author', values.author);
          reviewer = resolveRoleModel(platform.settings, process.env, 'reviewer', values.reviewer);
        } catch (error) {
          const data = error instanceof AppError ? error.toData() : { code: 'LLM_NOT_CONFIGURED', message: 'no provider', retryable: false };
          writeReport(outDir, { run_id: runId, mode, suite, status: 'LIVE_EVAL_BLOCKED', blocked_by: data }, []);
          process.stdout.write(`LIVE_EVAL_BLOCKED [${data.code}] ${data.message}\nreport: ${path.join(outDir, 'report.json')}\n`);
          return 1;
        }
        for (const fixture of fixtures) for (let i = 1; i <= repeats; i += 1) {
          try {
            results.push(await runScenario({ scenario: fixture.id, fixture, repeat: i, author, reviewer, outDir, workerScript }));
          } catch (error) {
            const code = (error as { code?: string }).code ?? 'LLM_TRANSPORT_UNAVAILABLE';
            writeReport(outDir, { run_id: runId, mode, suite, status: 'LIVE_EVAL_BLOCKED', blocked_by: { code, message: (error as Error).message } }, results);
            process.stdout.write(`LIVE_EVAL_BLOCKED [${code}] ${(error as Error).message}\n`);
            return 1;
          }
          process.stdout.write(`${line(results[results.length - 1] as ScenarioResult)}\n`);
        }
      } else {
        const binary = fileURLToPath(new URL('./scriptedCadgenProvider.js', import.meta.url));
        const scenarios = [
          ...fixtures.flatMap((f) => Array.from({ length: repeats }, (_, i) => ({ name: f.id, fixture: f, faults: undefined as string | undefined, state: f.expected_state, min: undefined as Partial<ScenarioCounts> | undefined, max: undefined as Partial<ScenarioCounts> | undefined, raise: undefined as Record<string, number> | undefined, repeat: i + 1 }))),
          ...(suite === 'release' ? RELEASE_FAULTS.flatMap((s) => Array.from({ length: repeats }, (_, i) => { const base = fixtures.find((f) => f.id === s.fixture) ?? loadFixtures(fixturesDir, 'smoke')[0]!; return { name: s.name, fixture: s.budget ? { ...base, budget: s.budget } : base, faults: s.name, state: s.state, min: s.min, max: s.max, raise: s.raise, repeat: i + 1 }; })) : []),
        ].filter((s) => !values.only || values.only.split(',').includes(s.name));
        for (const s of scenarios) {
          try {
            if (s.name === 'swapped_endpoint') {
              const good = await startFixtureProvider(binary, fixturesDir, s.fixture.id);
              const swapped = await startFixtureProvider(binary, fixturesDir, s.fixture.id, s.faults);
              try {
                results.push(await runSwappedEndpointScenario({ scenario: s.name, fixture: s.fixture, repeat: s.repeat, good: good.config, swapped: swapped.config, outDir, workerScript }));
              } finally {
                good.child.kill('SIGTERM');
                swapped.child.kill('SIGTERM');
              }
              process.stdout.write(`${line(results[results.length - 1] as ScenarioResult)}\n`);
              continue;
            }
            const provider = await startFixtureProvider(binary, fixturesDir, s.fixture.id, s.faults);
            try {
              results.push(await runScenario({ scenario: s.name, fixture: s.fixture, repeat: s.repeat, author: provider.config, reviewer: provider.config, outDir, workerScript, expectState: s.state, ...(s.min ? { minCounts: s.min } : {}), ...(s.max ? { maxCounts: s.max } : {}), ...(s.raise ? { raise: s.raise } : {}) }));
            } finally {
              provider.child.kill('SIGTERM');
            }
          } catch (error) {
            // A harness failure still leaves the report of everything that ran before it.
            writeReport(outDir, { run_id: runId, mode, suite, status: 'FAILED', aborted_at: `${s.name}#${s.repeat}`, error: (error as Error).message }, results);
            throw error;
          }
          process.stdout.write(`${line(results[results.length - 1] as ScenarioResult)}\n`);
        }
      }
      const passed = results.every((r) => r.passed);
      writeReport(outDir, { run_id: runId, mode, suite, status: passed ? 'PASSED' : 'FAILED', protocol: 'cdsl-v3', contract_version: '3.0', wall_ms: Date.now() - started }, results);
      process.stdout.write(`${passed ? 'PASSED' : 'FAILED'}: ${results.filter((r) => r.passed).length}/${results.length} scenarios; report ${path.join(outDir, 'report.json')}\n`);
      return passed ? 0 : 1;
    } finally {
      platform.close();
    }
  },
};
