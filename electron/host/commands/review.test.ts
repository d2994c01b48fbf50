import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../shared/errors';
import { openDatabase } from '../../platform/db/openDatabase';
import { allMigrations } from '../composition/migrations';
import {
  createFolderOutput,
  createSqliteReviewStore,
  decideAnnotation,
  listAnnotatedFindings,
  parseChecklist,
  startReview,
  writeApprovedAnnotations,
  type ReviewReport,
} from '../../features/review/index';
import { openDxfReviewEndpoints, parseReviewArgs, reviewCommand } from './review';
import { ezdxfPython } from '../../testSupport/prereqs';

const repoRoot = path.resolve(__dirname, '../../..');
const sample = path.join(repoRoot, 'resources/samples/cadsight_sample_gb_a3_3frames.dxf');
const flange = path.join(repoRoot, 'electron/testSupport/fixtures/dxf/mech_flange_3frames_modelspace_DERIVED.dxf');
const python = ezdxfPython('review.test approved annotations');

let dir: string;
let stdout: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'review-cli-'));
  vi.stubEnv('CADSIGHT_DATA_DIR', path.join(dir, 'data'));
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const readReport = (out: string): ReviewReport => JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
const planted = (report: ReviewReport) => report.findings.map((f) => `${f.frameId}:${f.checklistItemId}`).sort();

describe('parseReviewArgs', () => {
  it('reads back any valid combination of options', () => {
    const options = fc.record({
      file: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}\.dxf$/),
      checklist: fc.option(fc.stringMatching(/^[a-z]{1,8}\.json$/), { nil: undefined }),
      frames: fc.option(fc.uniqueArray(fc.stringMatching(/^[A-F0-9]{1,4}$/), { minLength: 1, maxLength: 4 }), { nil: undefined }),
      concurrency: fc.integer({ min: 1, max: 16 }),
      flags: fc.subarray(['--plan-only', '--json', '--no-llm', '--list-tools']),
    });
    fc.assert(
      fc.property(options, (o) => {
        const argv = [o.file, ...(o.checklist ? ['--checklist', o.checklist] : []), ...(o.frames ? ['--frames', o.frames.join(',')] : []), '--concurrency', String(o.concurrency), ...o.flags];
        const parsed = parseReviewArgs(argv);
        expect(parsed).toMatchObject({ file: o.file, checklist: o.checklist ?? null, frames: o.frames ?? null, concurrency: o.concurrency, planOnly: o.flags.includes('--plan-only'), json: o.flags.includes('--json') });
      }),
    );
  });

  it('turns any malformed argument list into REVIEW_BAD_ARGUMENTS, never another error', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('--cad', '--frames', '--concurrency', '--lang', '--out', 'x.dxf', '--bogus', '0', 'host:99999'), fc.string()), { maxLength: 6 }), (argv) => {
        try {
          parseReviewArgs(argv);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('REVIEW_BAD_ARGUMENTS');
        }
      }),
    );
  });

  it('requires exactly one drawing', () => {
    expect(() => parseReviewArgs([])).toThrow(/exactly one drawing/);
    expect(() => parseReviewArgs(['a.dxf', '--cad', '127.0.0.1:8080'])).toThrow(/exactly one drawing/);
    expect(parseReviewArgs(['--cad', '127.0.0.1:8080']).cad).toEqual({ host: '127.0.0.1', port: 8080 });
  });
});

describe('cadsight review on the embedded DXF backend', () => {
  it('finds exactly the planted problems of the shipped sample and exits 1 for the blocking one', async () => {
    const out = path.join(dir, 'out');
    expect(await reviewCommand.run([sample, '--out', out, '--lang', 'en'])).toBe(1);
    const report = readReport(out);
    expect(planted(report)).toEqual(['139:GEO-001', '139:GEO-002', '139:TB-001', '92:LAY-001', 'E9:DIM-001', 'E9:TXT-001']);
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('![E9](screenshots/E9.png)');
    // A real PNG screenshot per frame, from the backend's renderer.
    expect(readFileSync(path.join(out, 'screenshots/E9.png')).subarray(1, 4).toString()).toBe('PNG');

    const again = path.join(dir, 'again');
    expect(await reviewCommand.run([sample, '--out', again, '--lang', 'en'])).toBe(1);
    expect(readReport(again).findings.map((f) => f.id)).toEqual(report.findings.map((f) => f.id));
  });

  it('finds the planted zero-length line, duplicate line and missing revision of the three-frame flange', async () => {
    const out = path.join(dir, 'flange');
    await reviewCommand.run([flange, '--out', out, '--lang', 'en']);
    const report = readReport(out);
    const frameOf = (title: string) => report.frames.find((f) => f.frame.titleBlock.title === title)!.frame.id;
    const items = planted(report);
    expect(items).toContain(`${frameOf('法兰盖')}:GEO-001`);
    expect(report.findings.filter((f) => f.checklistItemId === 'GEO-002')).toHaveLength(1);
    expect(report.findings.some((f) => f.frameId === frameOf('法兰盖') && f.evidenceRefs.includes(`titleblock:${frameOf('法兰盖')}/revision`))).toBe(true);
    expect(report.findings.some((f) => f.frameId === frameOf('法兰盘') && f.evidenceRefs.some((r) => r.endsWith('/revision')))).toBe(false);
  });

  it('prints the plan without reviewing', async () => {
    expect(await reviewCommand.run([sample, '--plan-only', '--json'])).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.frames.map((f: { id: string; sheetName: string }) => `${f.id}/${f.sheetName}`)).toEqual(['92/A3', 'E9/A3', '139/A3']);
    expect(plan.missing).toEqual([]);
  });

  it('refuses an unknown frame id with the known ones', async () => {
    await expect(reviewCommand.run([sample, '--frames', 'nope'])).rejects.toMatchObject({ code: 'REVIEW_FRAME_NOT_FOUND' });
  });
});

describe.skipIf(!python)('approved annotations written to a DXF copy', () => {
  it('writes two approved leaders that ezdxf reads back, and a re-run of the saved copy writes nothing new', async () => {
    const file = path.join(dir, 'sample.dxf');
    copyFileSync(sample, file);
    const db = openDatabase({ file: path.join(dir, 'review.db'), migrations: allMigrations }).db;
    try {
      const store = createSqliteReviewStore(db, () => new Date());
      const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
      let n = 0;
      const deps = { store, now: () => new Date(), newRunId: () => `run-${++n}`, generatorVersion: 'test' };
      const review = async (drawing: string) => {
        const endpoints = await openDxfReviewEndpoints(drawing);
        const result = await startReview(deps, { source: endpoints.source, output: createFolderOutput(path.join(dir, `out-${n}`)), concurrency: 2 }, checklist, { llm: false, locale: 'zh-CN', frames: null });
        return { ...endpoints, runId: result.runId, items: listAnnotatedFindings(store, result.runId) };
      };
      const first = await review(file);
      const [a, b, c] = first.items;
      decideAnnotation(store, a!.finding.id, { kind: 'approve', payloadHash: a!.payloadHash });
      decideAnnotation(store, b!.finding.id, { kind: 'approve', payloadHash: b!.payloadHash });
      decideAnnotation(store, c!.finding.id, { kind: 'reject' });
      const outcome = await writeApprovedAnnotations(store, first.source, first.target, first.runId, () => new Date());
      expect(outcome.written).toHaveLength(2);
      const saved = path.join(dir, 'sample.ai-review.dxf');
      expect(outcome.saved).toContain('sample.ai-review.dxf');

      const readBack = execFileSync(
        python!,
        ['-c', 'import ezdxf,sys,json; d=ezdxf.readfile(sys.argv[1]); a=d.audit(); m=d.modelspace(); t=[e for e in m if e.dxf.layer=="AI_REVIEW" and e.dxftype() in ("MTEXT","TEXT")]; print(json.dumps({"errors": len(a.errors), "texts": [e.plain_text() if e.dxftype()=="MTEXT" else e.dxf.text for e in t], "ids": [v for e in t if e.has_xdata("CADSIGHT_REVIEW") for c, v in e.get_xdata("CADSIGHT_REVIEW")], "appid": "CADSIGHT_REVIEW" in d.appids, "leaders": len([e for e in m if e.dxf.layer=="AI_REVIEW" and e.dxftype() in ("LEADER","LWPOLYLINE","LINE")]) }))', saved],
        { encoding: 'utf8' },
      );
      const parsed = JSON.parse(readBack) as { errors: number; texts: string[]; ids: string[]; appid: boolean; leaders: number };
      expect(parsed.errors).toBe(0);
      // The visible text is the note alone; the id is in XDATA under a registered application.
      expect(parsed.texts.sort()).toEqual([a!.annotation.text, b!.annotation.text].sort());
      expect(parsed.texts.some((t) => t.includes('[AI-R'))).toBe(false);
      expect(parsed.ids.sort()).toEqual([a!.finding.shortId, b!.finding.shortId].sort());
      expect(parsed.appid).toBe(true);
      expect(parsed.leaders).toBeGreaterThanOrEqual(2);

      // The saved copy is the same drawing plus AI_REVIEW: same finding ids, nothing written again.
      const second = await review(saved);
      expect(second.items.map((i) => i.finding.id).sort()).toEqual(first.items.map((i) => i.finding.id).sort());
      const again = await writeApprovedAnnotations(store, second.source, second.target, second.runId, () => new Date());
      expect(again.written).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe('cadsight review --cad over real TCP', () => {
  it('reviews a drawing served by a cad_mcp_frame-compatible server on 127.0.0.1 with the same findings', async () => {
    const { openDxfBackend, startJsonRpcLineServer } = await import('../../features/cadlink/index');
    const server = await startJsonRpcLineServer({ port: 0, handler: await openDxfBackend(sample) });
    try {
      const out = path.join(dir, 'tcp');
      expect(await reviewCommand.run(['--cad', `127.0.0.1:${server.port}`, '--out', out, '--lang', 'en', '--json'])).toBe(1);
      expect(planted(readReport(out))).toEqual(['139:GEO-001', '139:GEO-002', '139:TB-001', '92:LAY-001', 'E9:DIM-001', 'E9:TXT-001']);
      expect(JSON.parse(stdout).status).toBe('completed');
    } finally {
      await server.close();
    }
  });

  it('fails with a typed connection error when nothing listens', async () => {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await expect(reviewCommand.run(['--cad', `127.0.0.1:${port}`, '--plan-only'])).rejects.toMatchObject({ code: expect.stringMatching(/^CAD_/) });
  });
});

describe('cadsight review with a configured reviewer model', () => {
  it('runs the LLM items through the model and merges its findings into the same report', async () => {
    const { startScriptedProvider } = await import('../../testSupport/scriptedProvider');
    const { overlapReviewer } = await import('../../testSupport/reviewScripts/overlapReviewer');
    const { createPlatformRuntime } = await import('../composition/platformRuntime');
    const provider = await startScriptedProvider({
      script: overlapReviewer,
    });
    try {
      const runtime = createPlatformRuntime({ env: process.env, systemLocale: 'zh-CN', logName: 'test.log' });
      runtime.settings.saveProvider({ id: 'scripted', label: 'Scripted', preset: 'custom', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, allowLocalNetwork: true, models: ['scripted-model'], forceStreaming: false });
      runtime.settings.setRoleModel({ role: 'reviewer', value: { providerId: 'scripted', model: 'scripted-model' } });
      runtime.close();

      const out = path.join(dir, 'llm');
      expect(await reviewCommand.run([sample, '--out', out, '--concurrency', '1'])).toBe(1);
      const report = readReport(out);
      expect(report.options.llm).toBe(true);
      expect(report.notEvaluated).toEqual([]);
      expect(report.findings.filter((f) => f.source === 'llm').map((f) => `${f.frameId}:${f.checklistItemId}`)).toEqual(['E9:LLM-002']);
      expect(provider.requests).toHaveLength(1 + 3 + 1); // the tool-call check, one per frame, one evidence re-ask on E9

      // --no-llm keeps it rules-only even with a configured model.
      const rules = path.join(dir, 'rules');
      await reviewCommand.run([sample, '--out', rules, '--no-llm']);
      expect(readReport(rules).options.llm).toBe(false);
      expect(provider.requests).toHaveLength(1 + 3 + 1);
    } finally {
      await provider.close();
    }
  });
});

describe('cadsight review with a reviewer model that fails', () => {
  const failures = [
    { name: 'answers HTTP 500', step: { error: { status: 500, body: { error: { message: 'upstream exploded' } } } }, cause: 'LLM_TRANSPORT_UNAVAILABLE' },
    { name: 'stays rate-limited (429) past the retry budget', step: { error: { status: 429, retryAfter: 0, body: { error: { message: 'slow down' } } } }, cause: 'LLM_TRANSPORT_UNAVAILABLE' },
    { name: 'hangs past the request timeout', step: { delayMs: 8_000, text: 'too late' }, cause: 'LLM_TRANSPORT_UNAVAILABLE' },
    { name: 'answers with garbage instead of JSON', step: { error: { status: 200, body: '<html>garbage' } }, cause: 'LLM_BAD_RESPONSE' },
    { name: 'answers in prose instead of the tool call', step: { text: 'The drawing looks fine to me.' }, cause: 'LLM_NO_TOOL_CALL' },
    { name: 'answers without choices', step: { error: { status: 200, body: { id: 'x', object: 'chat.completion', choices: [] } } }, cause: 'LLM_BAD_RESPONSE' },
  ] as const;

  for (const failure of failures) {
    it(`keeps every rule finding and exits above the rules-only code when the model ${failure.name}`, async () => {
      const { startScriptedProvider } = await import('../../testSupport/scriptedProvider');
      const { createPlatformRuntime } = await import('../composition/platformRuntime');
      const provider = await startScriptedProvider({ script: () => failure.step });
      vi.stubEnv('CADSIGHT_LLM_TIMEOUT_MS', '1000');
      try {
        const rulesOut = path.join(dir, 'rules');
        const rulesCode = await reviewCommand.run([sample, '--out', rulesOut, '--no-llm']);
        expect(rulesCode).toBe(1);
        const runtime = createPlatformRuntime({ env: process.env, systemLocale: 'zh-CN', logName: 'test.log' });
        runtime.settings.saveProvider({ id: 'scripted', label: 'Scripted', preset: 'custom', protocol: 'chat-completions', baseUrl: provider.apiBaseUrl, allowLocalNetwork: true, models: ['scripted-model'], forceStreaming: false });
        runtime.settings.setRoleModel({ role: 'reviewer', value: { providerId: 'scripted', model: 'scripted-model' } });
        runtime.close();

        const out = path.join(dir, 'failing');
        const code = await reviewCommand.run([sample, '--out', out, '--concurrency', '2']);
        expect(code).toBe(4);
        expect(code).toBeGreaterThan(rulesCode);
        const report = readReport(out);
        expect(report.frames.map((f) => [f.status, f.error?.code])).toEqual(report.frames.map(() => ['llm_failed', failure.cause]));
        expect(planted(report)).toEqual(planted(readReport(rulesOut)));
        expect(report.summary).toMatchObject({ hasBlocking: true, llmFailedFrames: 3 });
        expect(report.notEvaluated.map((n) => n.checklistItemId)).toEqual(['LLM-001', 'LLM-002', 'LLM-003', 'LLM-004', 'LLM-005']);
        expect(report.notEvaluated.every((n) => n.frameIds?.length === 3)).toBe(true);
        const markdown = readFileSync(path.join(out, 'report.md'), 'utf8');
        expect(markdown).toContain('AI 审查未能运行，本图框只有规则审查结果');
        expect(markdown).not.toContain('未发现问题。');
      } finally {
        await provider.close();
      }
    }, 30_000);
  }

  it('exits 3, not 0, when the drawing is clean for the rules and the AI step failed', async () => {
    const { reviewExitCode } = await import('./review');
    const summary = { total: 0, hypotheses: 0, bySeverity: { blocking: 0, major: 0, minor: 0, info: 0 }, hasBlocking: false, frames: 1, failedFrames: 0, llmFailedFrames: 1 };
    const report = { summary } as unknown as ReviewReport;
    expect(reviewExitCode({ runId: 'r', status: 'completed', report: { ...report, summary: { ...summary, llmFailedFrames: 0 } } })).toBe(0);
    expect(reviewExitCode({ runId: 'r', status: 'completed_with_errors', report })).toBe(3);
    expect(reviewExitCode({ runId: 'r', status: 'cancelled' })).toBe(2);
  });
});

describe('DIM-001 on a drawing written without stored measurements', () => {
  it.skipIf(!python)('flags exactly the displayed values that disagree with the geometry, for every dimension kind', async () => {
    const file = path.join(dir, 'dims.dxf');
    const generator = path.join(repoRoot, 'electron/testSupport/fixtures/dxf/generate_dims_without_measurement.py');
    const expected = JSON.parse(execFileSync(python!, [generator, file], { encoding: 'utf8' })) as Record<string, { flagged: boolean }>;
    const out = path.join(dir, 'dims');
    expect(await reviewCommand.run([file, '--out', out, '--no-llm', '--lang', 'en'])).toBe(1);
    const flagged = readReport(out).findings.filter((f) => f.checklistItemId === 'DIM-001').flatMap((f) => f.evidenceRefs.filter((r) => r.startsWith('entity:')).map((r) => r.slice(7)));
    const want = Object.entries(expected).filter(([, e]) => e.flagged).map(([handle]) => handle);
    expect(flagged.sort()).toEqual(want.sort());
    expect(want.length).toBeGreaterThanOrEqual(6);
  });
});

describe('a drawing without handles', () => {
  /** An R12-style ENTITIES-only DXF without group 5, as recovered and hand-written files are. */
  function handlelessDxf(): string {
    const tags: (string | number)[] = [0, 'SECTION', 2, 'ENTITIES'];
    for (let i = 0; i < 20; i++) tags.push(0, 'LINE', 8, 'GEOM', 10, 10 * i, 20, 5, 11, 10 * i, 21, 5);
    for (let i = 0; i < 3; i++) tags.push(0, 'LINE', 8, 'GEOM', 10, 0, 20, 50, 11, 100, 21, 50);
    tags.push(0, 'ENDSEC', 0, 'EOF');
    const file = path.join(dir, 'no-handles.dxf');
    // Bytes after EOF, as truncated copies and recovered files have: the reader skips them.
    writeFileSync(file, `${tags.join('\n')}\n999\ngarbage\n`);
    return file;
  }

  it('reports the detector hits of one sheet as one grouped finding with every hit, identified by geometry fingerprints, with readable messages', async () => {
    const file = handlelessDxf();
    const { source } = await openDxfReviewEndpoints(file);
    const detector = JSON.parse((await source.callTool('find_zero_length', {})).content.map((c) => (c.type === 'text' ? c.text : '')).join(''));
    const out = path.join(dir, 'no-handles');
    await reviewCommand.run([file, '--out', out, '--no-llm']);
    const findings = readReport(out).findings;
    const zero = findings.filter((f) => f.checklistItemId === 'GEO-001');
    expect(detector.entities).toHaveLength(20);
    expect(zero).toHaveLength(1);
    expect(zero[0]!.count).toBe(20);
    expect(zero[0]!.locations).toHaveLength(20);
    expect(new Set(zero[0]!.evidenceRefs.filter((r) => r.startsWith('entity:fp:'))).size).toBe(20);
    // The Markdown report gives the group one line with its count and its first places.
    const markdown = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(markdown).toMatch(/GEO-001 ×20\*\*/);
    expect(markdown).toMatch(/: 20 × \(.+\) … \(\+12\)/);
    const duplicates = findings.filter((f) => f.checklistItemId === 'GEO-002');
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0]!.evidenceRefs.filter((r) => r.startsWith('entity:fp:'))).toHaveLength(3);
    for (const f of findings) {
      expect(f.message).not.toMatch(/句柄\s+[）)、]|handle\s+[),]/);
      expect(f.evidenceRefs).not.toContain('entity:');
    }
    // The report says the file was repaired, in the run's language.
    expect(readReport(out).drawing.problems.map((p) => p.kind)).toContain('trailing_data');
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('图纸经修复后读取');
    // A re-run gives the same ids.
    const again = path.join(dir, 'no-handles-2');
    await reviewCommand.run([file, '--out', again, '--no-llm']);
    expect(readReport(again).findings.map((f) => f.id)).toEqual(findings.map((f) => f.id));
  });
});
