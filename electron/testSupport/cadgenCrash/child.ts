// Test-support binary for the SIGKILL crash-recovery test (issue 9), never loaded by the app.
// Usage: node dist/node/cadgenCrashChild.js --dir <run dir> --base-url <scripted provider /v1>
//          (--request "<text>" | --resume) [--kill-point <point> --kill-at <n>]
// Runs one generation task in <dir>/cadsight.db + <dir>/tasks with the real kernel. Every crash
// point hit and every outbox event reaching the sink is appended to <dir>/trace.jsonl before
// anything else happens, so the parent can check what a killed process did. At the n-th hit of
// the kill point the process SIGKILLs itself (no cleanup, no flush: a real crash).
// --resume runs start-up recovery, then resumes every interrupted task. Prints one JSON line
// {"task_id", "state"} per task on stdout (after its run).
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createGenerationRuntime, tasksRootOf } from '../../host/composition/cadgenGeneration';
import { allMigrations } from '../../host/composition/migrations';
import { openDatabase } from '../../platform/db/openDatabase';
import type { LlmProviderConfig } from '../../platform/llm/types';

const { values } = parseArgs({
  options: { dir: { type: 'string' }, 'base-url': { type: 'string' }, request: { type: 'string' }, resume: { type: 'boolean' }, 'kill-point': { type: 'string' }, 'kill-at': { type: 'string' }, budget: { type: 'string' } },
  strict: true,
});
const dir = values.dir;
const baseUrl = values['base-url'];
if (!dir || !baseUrl || (!values.request && !values.resume)) throw new Error('usage: --dir <dir> --base-url <url> (--request <text> | --resume) [--kill-point p --kill-at n]');
const trace = path.join(dir, 'trace.jsonl');
const record = (entry: Record<string, unknown>): void => appendFileSync(trace, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
const killPoint = values['kill-point'];
const killAt = Number(values['kill-at'] ?? 0);
const hits = new Map<string, number>();

const config: LlmProviderConfig = { id: 'chat', protocol: 'chat-completions', baseUrl, model: 'scripted-model', getApiKey: () => undefined };
const { db } = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: allMigrations });
const gen = createGenerationRuntime({
  db,
  tasksRoot: tasksRootOf(dir),
  author: config,
  reviewer: config,
  workerScript: pathToFileURL(path.join(path.dirname(process.argv[1] ?? '.'), 'occtWorker.js')),
  sink: (event) => record({ sink: event.seq, type: event.type }),
  crashHook: (point, detail) => {
    const n = (hits.get(point) ?? 0) + 1;
    hits.set(point, n);
    record({ point, n, ...(detail ? { detail } : {}) });
    if (point === killPoint && n === killAt) {
      record({ killed: point, n });
      process.kill(process.pid, 'SIGKILL');
    }
  },
});
const budget = values.budget ? (JSON.parse(values.budget) as Record<string, number>) : undefined;
if (values.resume) {
  const report = await gen.recover();
  record({ recovered: report });
  for (const listed of gen.service.list()) {
    const task = report.interrupted.includes(listed.task_id) ? await gen.service.resume(listed.task_id) : listed;
    process.stdout.write(`${JSON.stringify({ task_id: task.task_id, state: task.state })}\n`);
  }
} else {
  const created = await gen.service.create({ request: values.request ?? '', ...(budget ? { budget } : {}) });
  const task = await gen.service.run(created.task_id);
  process.stdout.write(`${JSON.stringify({ task_id: task.task_id, state: task.state })}\n`);
}
record({ hits: Object.fromEntries(hits) });
await gen.dispose();
db.close();
