// npm run eval:review — precision and recall of the review's deterministic rules, per rule and per
// space, on a labelled corpus: generated GB sheets (planted defects, clean sheets, near-miss decoys,
// paper-space sheets, drawing sets with a 图纸目录) written through the project's DXF writer, plus
// real corpus sheets labelled by hand (resources/evals/review/real_labels.json). Writes
// eval/results/review.json and review.md; exits 1 when a rule misses its target.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ezdxfPython } from '../../electron/testSupport/prereqs';
import { runReviewEval, type RealLabel } from './review/run';
import { meetsTarget, scoreBySpace, scoreRules, type RuleScore } from './review/score';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const python = ezdxfPython('eval:review');
if (!python) {
  process.stderr.write('eval:review needs Python with ezdxf for the template (apt-get install python3-ezdxf)\n');
  process.exit(2);
}
const labels = JSON.parse(readFileSync(path.join(repoRoot, 'resources/evals/review/real_labels.json'), 'utf8')) as RealLabel[];
const started = performance.now();
const run = await runReviewEval({ repoRoot, python, corpusDir: path.resolve(repoRoot, '../shared/corpus/dxf'), labels });
const all = scoreRules(run.outcomes, run.rules);
const bySpace = scoreBySpace(run.outcomes, run.rules);
const sheets = run.outcomes.filter((o) => !o.unit.endsWith('#drawing'));
const fmt = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
const row = (s: RuleScore): string => `${fmt(s.precision)} / ${fmt(s.recall)} (${s.tp}/${s.fp}/${s.fn})`;
const failing = all.filter((s) => !meetsTarget(s));
const result = {
  machine: { cpus: os.cpus().length, node: process.version },
  ms: Math.round(performance.now() - started),
  corpus: {
    files: run.files.length,
    sheets: sheets.length,
    modelSheets: sheets.filter((o) => o.space === 'model').length,
    paperSheets: sheets.filter((o) => o.space === 'paper').length,
    realFiles: run.files.filter((f) => f.origin === 'real').length,
    skippedReal: run.skippedReal,
  },
  target: { precision: 0.95, recall: 0.9 },
  rules: all,
  bySpace,
  failing: failing.map((s) => s.rule),
  files: run.files,
};
const md = [
  '# Review evaluation: precision and recall per rule',
  '',
  `${result.corpus.files} files, ${result.corpus.sheets} sheets (${result.corpus.modelSheets} model space, ${result.corpus.paperSheets} paper space), ${result.corpus.realFiles} real corpus files labelled by hand; rules-only review; ${result.ms} ms.${run.skippedReal ? ` ${run.skippedReal}.` : ''}`,
  '',
  'Cells: precision / recall (true positives / false positives / misses); — = nothing to tell. Target for every deterministic rule: precision ≥ 0.95, recall ≥ 0.90.',
  '',
  '| rule | all | model space | paper space | meets target |',
  '|---|---|---|---|---|',
  ...all.map((s, i) => `| ${s.rule} | ${row(s)} | ${row(bySpace.model[i]!)} | ${row(bySpace.paper[i]!)} | ${meetsTarget(s) ? 'yes' : '**no**'} |`),
  '',
  ...(failing.length > 0 ? ['## Misses and false alarms', '', ...failing.flatMap((s) => [`- ${s.rule}: missed ${s.misses.join(', ') || '—'}; false alarms ${s.falseAlarms.join(', ') || '—'}`]), ''] : []),
].join('\n');
mkdirSync(path.join(repoRoot, 'eval/results'), { recursive: true });
writeFileSync(path.join(repoRoot, 'eval/results/review.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(path.join(repoRoot, 'eval/results/review.md'), `${md}\n`);
process.stdout.write(`${md}\n`);
process.exitCode = failing.length > 0 ? 1 : 0;
