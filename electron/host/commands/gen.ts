import path from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '../../../shared/errors';
import { checkModel, requireConformantModel, type TaskRecord } from '../../features/cadgen/index';
import { createGenerationRuntime, tasksRootOf, type GenerationRuntime } from '../composition/cadgenGeneration';
import { createSqliteReviewStore } from '../../features/review/index';
import { drawingForTask } from '../composition/cadgenDrawing';
import { budgetLine, budgetRaiseOf } from './genBudget';
import { exportRevisionFolder } from '../composition/generationExportFolder';
import { resolveRoleModel } from '../composition/modelResolution';
import { createPlatformRuntime } from '../composition/platformRuntime';

const USAGE = `Usage:
  cadsight gen new "<request>" [--author provider/model] [--reviewer provider/model] [--from-task ID --revision rev_NNN] [--json]
  cadsight gen list | show ID | ledger ID [--all] [--json]
  cadsight gen resume ID [--budget name=N ...] | answer ID "<text>" | cancel ID
  cadsight gen export ID --out <dir>
  cadsight gen drawing ID [--revision rev_NNN] [--sheet auto|A4|A3|A2] [--projection first-angle|third-angle] [--lang zh-CN|en] --out <dir>
  cadsight gen check [--author provider/model] [--reviewer provider/model]

The author builds the part one verified action at a time; an independent reviewer checks the
requirements, every candidate and the final revision (CDSL v3 protocol). Runs end in COMPLETED,
FAILED, WAITING_RETRY (resume it) or WAITING_FOR_USER (answer it). Models: --author/--reviewer,
else the author/reviewer roles in settings (CADSIGHT_AUTHOR_PROVIDER...), else DEFAULT_PROVIDER
and <ID>_API_KEY/<ID>_MODEL/<ID>_BASE_URL (CHAT_BASE_URL + CHAT_MODEL for any Chat Completions
gateway). A model is used only after it passed the conformance suite (gen check; run
automatically once for a new model). Budgets fit the part: the defaults until the requirements
are frozen, then a base plus an allowance per estimated feature. A task FAILED as BUDGET_EXHAUSTED
continues with a larger budget: gen resume ID --budget author_turns=N (names: author_turns,
reviewer_calls, prompt_tokens, context_bytes, wall_time in minutes, candidate_builds; each above
what the task spent). Task folders: <data>/cadgen-tasks/<task_id>/.
ledger prints one JSON line per event (--json: one array); --all adds every model output's audit
row (redacted raw arguments, field errors; format errors marked format_error). --json prints
exactly one JSON document on stdout (progress goes to stderr), errors as {"error": {...}}.
Exit code 0 for COMPLETED (or a successful read), 1 for other end states, 2 for usage errors.
`;

const OPTIONS = {
  author: { type: 'string' },
  reviewer: { type: 'string' },
  'from-task': { type: 'string' },
  revision: { type: 'string' },
  out: { type: 'string' },
  sheet: { type: 'string' },
  projection: { type: 'string' },
  lang: { type: 'string' },
  budget: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  all: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const print = (text: string): void => void process.stdout.write(`${text}\n`);

function summary(task: TaskRecord): Record<string, unknown> {
  return { task_id: task.task_id, state: task.state, head_revision: task.head_revision, failure_reason: task.failure_reason, last_error: task.last_error, question: task.question, usage: task.usage, budget: task.budget, budget_basis: task.budget_basis ?? null, author: task.author_model, reviewer: task.reviewer_model };
}

function printTask(task: TaskRecord, json: boolean): void {
  if (json) return print(JSON.stringify(summary(task), null, 2));
  print(`${task.task_id}  ${task.state}${task.failure_reason ? ` (${task.failure_reason})` : ''}  head ${task.head_revision ?? '-'}`);
  if (task.question) print(`  question [${task.question.reason_code}]: ${task.question.text}\n  answer with: cadsight gen answer ${task.task_id} "<text>"`);
  if (task.last_error) print(`  last error [${task.last_error.code}] ${task.last_error.message}`);
  if (task.state === 'WAITING_RETRY') print(`  resume with: cadsight gen resume ${task.task_id}`);
  if (task.failure_reason === 'BUDGET_EXHAUSTED') print(`  continue with a larger budget: cadsight gen resume ${task.task_id} --budget ${String((task.last_error?.data as { limit?: string } | undefined)?.limit ?? 'author_turns')}=N`);
  print(`  ${budgetLine(task)}`);
  const cached = task.usage.cachedPromptTokens ?? 0;
  const cacheShare = task.usage.promptTokens > 0 ? ` (${cached} cached, ${Math.round((100 * cached) / task.usage.promptTokens)} %)` : '';
  print(`  usage: ${task.usage.authorTurns} author / ${task.usage.reviewerCalls} reviewer calls, ${task.usage.promptTokens} prompt tokens${cacheShare}, ${task.usage.candidateBuilds} builds`);
}

/** `cadsight gen ...`: the CAD generation protocol from the command line (see USAGE). */
export const genCommand = {
  name: 'gen',
  summary: 'Generate a part from a request (CDSL v3 protocol): new, list, show, ledger, resume, answer, cancel, export, drawing, check',
  async run(args: string[]): Promise<number> {
    let parsed;
    try {
      parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      process.stderr.write(`cadsight gen: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    const { values, positionals } = parsed;
    const [sub, target, extra] = positionals;
    if (values.help || !sub) {
      process.stdout.write(USAGE);
      return values.help ? 0 : 2;
    }
    const json = values.json === true;
    const platform = createPlatformRuntime({ env: process.env, systemLocale: Intl.DateTimeFormat().resolvedOptions().locale, logName: 'cli.log' });
    const needsModels = ['new', 'resume', 'answer', 'check'].includes(sub);
    let gen: GenerationRuntime | undefined;
    try {
      // A bad --budget is refused before any model or task is touched.
      const raise = budgetRaiseOf(values.budget);
      const author = needsModels ? resolveRoleModel(platform.settings, process.env, 'author', values.author) : undefined;
      const reviewer = needsModels ? resolveRoleModel(platform.settings, process.env, 'reviewer', values.reviewer) : undefined;
      gen = createGenerationRuntime({
        db: platform.db,
        tasksRoot: tasksRootOf(platform.layout.root),
        ...(author ? { author } : {}),
        ...(reviewer ? { reviewer } : {}),
        workerScript: new URL('./occtWorker.js', import.meta.url),
        log: platform.log,
        redactor: platform.redactor,
        ...(json ? {} : { sink: (event) => process.stderr.write(`  · ${event.type}${Object.keys(event.payload).length ? ` ${JSON.stringify(event.payload).slice(0, 160)}` : ''}\n`) }),
      });
      const recovered = await gen.recover();
      if (recovered.interrupted.length > 0 && !json) process.stderr.write(`interrupted tasks (resume them): ${recovered.interrupted.join(', ')}\n`);
      const onStep = json ? undefined : (line: string) => process.stderr.write(`${line}\n`);
      const run = { ...(onStep ? { onStep } : {}) };
      const { service, deps } = gen;
      const need = (value: string | undefined, what: string): string => {
        if (!value) throw new AppError('CDSL_REQUEST_INVALID', `gen ${sub} needs ${what}`);
        return value;
      };
      const ended = (task: TaskRecord): number => {
        printTask(task, json);
        return task.state === 'COMPLETED' ? 0 : 1;
      };
      switch (sub) {
        case 'new': {
          await requireConformantModel(deps, deps.author);
          await requireConformantModel(deps, deps.reviewer);
          const from = values['from-task'] ? { taskId: values['from-task'], revisionId: need(values.revision, '--revision with --from-task') } : undefined;
          const created = await service.create({ request: need(target, 'a request text'), ...(from ? { from } : {}) });
          if (!json) process.stderr.write(`task ${created.task_id}\n  ${budgetLine(created)}\n`);
          return ended(await service.run(created.task_id, run));
        }
        case 'resume':
          return ended(await service.resume(need(target, 'a task id'), run, raise));
        case 'answer':
          return ended(await service.answer(need(target, 'a task id'), need(extra, 'the answer text'), run));
        case 'cancel':
          printTask(await service.cancel(need(target, 'a task id')), json);
          return 0;
        case 'list': {
          const tasks = service.list();
          if (json) print(JSON.stringify(tasks.map(summary), null, 2));
          else if (tasks.length === 0) print('no generation tasks yet; start one with: cadsight gen new "<request>"');
          else for (const t of tasks) print(`${t.task_id}  ${t.state.padEnd(22)} ${(t.head_revision ?? '-').padEnd(8)} ${t.request.slice(0, 60)}`);
          return 0;
        }
        case 'show': {
          const snapshot = service.show(need(target, 'a task id'));
          if (json) print(JSON.stringify({ ...summary(snapshot.task), contract: snapshot.contract?.contract ?? null, pending: snapshot.pending, revisions: snapshot.revisions.map((r) => ({ revision_id: r.revision_id, action_id: r.action_id, dir: r.dir })), claims: Object.fromEntries(snapshot.claimResults) }, null, 2));
          else {
            printTask(snapshot.task, false);
            for (const r of snapshot.contract?.contract.requirements ?? []) print(`  ${r.requirement_id} ${r.statement}`);
            for (const r of snapshot.revisions) print(`  ${r.revision_id} ← ${r.action_id}  ${r.dir}`);
          }
          return 0;
        }
        case 'ledger': {
          const id = need(target, 'a task id');
          const lines = values.all ? service.fullRecord(id) : service.ledger(id);
          if (json) print(JSON.stringify(lines, null, 2));
          else for (const line of lines) print(JSON.stringify(line));
          return 0;
        }
        case 'export': {
          const snapshot = service.show(need(target, 'a task id'));
          const out = path.resolve(need(values.out, '--out <dir>'));
          const head = snapshot.revisions.find((r) => r.revision_id === snapshot.task.head_revision);
          if (!head) throw new AppError('CDSL_REQUEST_INVALID', `task ${snapshot.task.task_id} has no accepted revision to export`);
          const exported = await exportRevisionFolder({ taskDir: deps.artifacts.taskDir(snapshot.task.task_id), revision: head, revisions: snapshot.revisions, out });
          if (json) print(JSON.stringify({ task_id: snapshot.task.task_id, revision: head.revision_id, out, files: exported.files }, null, 2));
          else print(`exported ${head.revision_id} of ${snapshot.task.task_id} to ${out} (${exported.files.length} files, each checked against its manifest)`);
          return 0;
        }
        case 'drawing': {
          const sheet = values.sheet ?? 'auto';
          const projection = values.projection ?? 'first-angle';
          const lang = values.lang ?? 'zh-CN';
          if (!['auto', 'A4', 'A3', 'A2'].includes(sheet) || !['first-angle', 'third-angle'].includes(projection) || !['zh-CN', 'en'].includes(lang)) {
            throw new AppError('CDSL_REQUEST_INVALID', 'gen drawing takes --sheet auto|A4|A3|A2, --projection first-angle|third-angle, --lang zh-CN|en');
          }
          const outcome = await drawingForTask(gen, createSqliteReviewStore(platform.db, () => new Date()), need(target, 'a task id'), {
            ...(values.revision ? { revision: values.revision } : {}),
            method: projection === 'first-angle' ? 'first_angle' : 'third_angle',
            format: sheet as 'auto' | 'A4' | 'A3' | 'A2',
            lang: lang as 'zh-CN' | 'en',
            outDir: path.resolve(need(values.out, '--out <dir>')),
            now: new Date(),
          });
          const f = outcome.review.findings;
          if (json) print(JSON.stringify({ revision: outcome.revision, artifact_dir: outcome.artifactDir, dxf: outcome.dxfPath, pdf: outcome.pdfPath, report: outcome.reportPath, format: outcome.sheet.format, scale: outcome.sheet.scale, claims: outcome.sheet.claims, review: outcome.review }, null, 2));
          else {
            print(`drawing of ${outcome.revision}: ${outcome.dxfPath} + ${path.basename(outcome.pdfPath)} (${outcome.sheet.format}, ${outcome.sheet.scale})`);
            for (const c of outcome.sheet.claims) print(`  ${c.claim_id.padEnd(24)} ${c.dimensions.length ? outcome.sheet.dimensions.filter((d) => c.dimensions.includes(d.id)).map((d) => d.text.replace('%%c', 'Ø').replace('<>', String(d.value))).join(', ') : '-'}${c.reason ? `  (${c.reason})` : ''}`);
            print(`self-review (rules only): ${f.total} findings (blocking ${f.blocking}, major ${f.major}, minor ${f.minor}, info ${f.info})${outcome.review.hasBlocking ? ' — BLOCKING: the drawing does not pass' : ''}`);
            print(`report: ${outcome.reportPath}`);
            print(outcome.artifactDir ? `revision artifact: ${outcome.artifactDir}` : `revision artifact: not written (the task's revision folder ${outcome.revision} is not under this data folder)`);
          }
          return outcome.review.hasBlocking ? 1 : 0;
        }
        case 'check': {
          let ok = true;
          const reports = [];
          for (const model of [deps.author, deps.reviewer]) {
            const report = await checkModel(deps, model);
            ok &&= report.passed;
            reports.push(report);
            if (!json) {
              print(`gen check: ${report.model}: ${report.passed ? `PASS (mode ${report.mode})` : 'FAIL'} (${report.checks.filter((c) => c.passed).length}/${report.checks.length}; ${report.cost.calls} calls, ${report.cost.requestBytes} bytes)`);
              print(`  modes: ${Object.entries(report.modes).map(([mode, outcome]) => `${mode} ${outcome.status}`).join(', ')}`);
              for (const c of report.checks.filter((x) => !x.passed)) print(`  ${`${c.mode} ${c.name}`.padEnd(40)} ${c.detail}`);
            }
          }
          if (json) print(JSON.stringify({ passed: ok, reports }, null, 2));
          return ok ? 0 : 1;
        }
        default:
          process.stderr.write(`cadsight gen: unknown sub-command ${sub}\n\n${USAGE}`);
          return 2;
      }
    } finally {
      await gen?.dispose();
      platform.close();
    }
  },
};
