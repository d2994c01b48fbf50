import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AppError } from '../../../shared/errors';
import {
  buildDocument,
  CdslErrorCode,
  createCdslCatalog,
  createFsPublisher,
  createOcctRuntime,
  encodeGlb,
  OCCT_OPERATION_IDS,
  parseClaims,
  renderPng,
  type BuildReport,
  type CadRuntime,
  type CdslCatalog,
  type TopologySnapshot,
} from '../../features/cadgen/index';

const USAGE = `Usage:
  cadsight cdsl validate <doc.json>
  cadsight cdsl build <doc.json> [--out <dir>] [--claims <claims.json>] [--json] [--timeout-ms <n>]
                    [--projection first-angle|third-angle]
  cadsight cdsl topology <doc.json>          faces/edges/features with their selector tokens
  cadsight cdsl contracts [atomic_id]        offered operations, or one operation's contract and fragment schema

build rebuilds the CDSL document on OpenCascade, evaluates the claims and, with --out, publishes
model.step, model.glb, view-{front,top,left,iso}.{svg,png} (third angle: right instead of left),
measurements.json, topology.json and manifest.json. Drawings use first-angle projection (GB/T 4458.1)
unless --projection third-angle is given. Exit code 0 when every feature builds and no deterministic claim fails, 1 otherwise,
2 for usage or schema errors.
`;

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new AppError(CdslErrorCode.schemaInvalid, `cannot read ${what} file ${file}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError(CdslErrorCode.schemaInvalid, `${what} file ${file} is not JSON: ${(error as Error).message}`);
  }
}

function fmt(value: number | undefined, digits = 3): string {
  return value === undefined ? '-' : value.toFixed(digits);
}

function humanReport(report: BuildReport): string {
  const lines = [`cdsl build: ${report.document_name} (${report.engine_version})`, '  FEATURE  OPERATION              STATUS   MS      VOLUME mm³'];
  for (const f of report.features) {
    lines.push(`  ${f.id.padEnd(8)} ${f.atomic_id.padEnd(22)} ${f.status.padEnd(8)} ${fmt(f.duration_ms, 0).padEnd(7)} ${fmt(f.volume_mm3)}`);
    if (f.error) lines.push(`           [${f.error.code}] ${f.error.message}`);
  }
  if (report.measurements) {
    const { bbox, volume_mm3, solid_count } = report.measurements;
    const size = bbox.max.map((v, i) => v - (bbox.min[i] as number));
    lines.push(`  solids ${solid_count}, volume ${fmt(volume_mm3)} mm³, bbox X × Y × Z ${size.map((v) => fmt(v, 4)).join(' × ')} mm`);
  }
  if (report.topology) lines.push(`  topology ${Object.entries(report.topology).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  if (report.claims.length > 0) lines.push('  CLAIM                    KIND                       RESULT       DETAIL');
  for (const c of report.claims) lines.push(`  ${c.id.padEnd(24)} ${c.kind.padEnd(26)} ${c.status.padEnd(12)} ${c.message}`);
  if (report.artifacts) lines.push(`  artifacts: ${report.artifacts.files.map((f) => f.name).join(', ')}, manifest.json`);
  lines.push(report.ok ? 'OK' : 'FAILED', '');
  return lines.join('\n');
}

function topologyListing(documentName: string, snapshot: TopologySnapshot): string {
  const v = (p: readonly number[] | undefined): string => (p ? `(${p.map((x) => fmt(x, 3)).join(', ')})` : '');
  const lines = [`snapshot ${snapshot.snapshot_id} (${documentName})`, 'FACES'];
  for (const f of snapshot.faces) lines.push(`  ${f.token} ${f.kind.padEnd(8)} area ${fmt(f.area_mm2, 2)} centroid ${v(f.centroid)} ${f.normal ? `normal ${v(f.normal)}` : ''}${f.radius_mm !== undefined ? ` r ${fmt(f.radius_mm)} axis ${v(f.axis?.direction)}${f.concave ? ' bore' : ''}` : ''}`);
  lines.push('EDGES');
  for (const e of snapshot.edges) lines.push(`  ${e.token} ${e.kind.padEnd(7)} length ${fmt(e.length_mm)} ${v(e.start)} → ${v(e.end)}`);
  lines.push('FEATURES');
  for (const f of snapshot.features) lines.push(`  ${f.token} ${f.feature_id} ${f.atomic_id} (${f.mode})`);
  return `${lines.join('\n')}\n`;
}

async function withRuntime<T>(timeoutMs: number | undefined, run: (runtime: CadRuntime) => Promise<T>): Promise<T> {
  // The worker bundle sits next to this CLI bundle in dist/node.
  const runtime = createOcctRuntime({ workerScript: new URL('./occtWorker.js', import.meta.url), ...(timeoutMs ? { operationTimeoutMs: timeoutMs } : {}) });
  try {
    return await run(runtime);
  } finally {
    await runtime.dispose();
  }
}

function contracts(catalog: CdslCatalog, atomicId: string | undefined): string {
  if (!atomicId) {
    const rows = [...catalog.contracts.values()].map((c) => `  ${c.atomic_id.padEnd(22)} ${c.summary}`);
    return `Offered operations (contract 3.0):\n${rows.join('\n')}\n${catalog.rejected.length > 0 ? `Refused by the integrity check: ${catalog.rejected.map((r) => r.atomic_id).join(', ')}\n` : ''}`;
  }
  const contract = catalog.contracts.get(atomicId);
  if (!contract) throw new AppError(CdslErrorCode.contractUnknown, `"${atomicId}" is not an offered operation (try: cadsight cdsl contracts)`);
  return `${JSON.stringify({ ...contract, fragment_schema: catalog.fragmentSchema(atomicId, null) }, null, 2)}\n`;
}

/** `cadsight cdsl ...`: validate, build, inspect topology and list operation contracts (see USAGE). */
export const cdslCommand = {
  name: 'cdsl',
  summary: 'CDSL parts: validate, build (STEP/GLB/drawings + claims), topology, contracts',
  async run(args: string[]): Promise<number> {
    let parsed: ReturnType<typeof parseArgs<{ options: { out: { type: 'string' }; claims: { type: 'string' }; json: { type: 'boolean' }; 'timeout-ms': { type: 'string' }; projection: { type: 'string' }; help: { type: 'boolean'; short: 'h' } }; allowPositionals: true; strict: true }>>;
    try {
      parsed = parseArgs({ args, options: { out: { type: 'string' }, claims: { type: 'string' }, json: { type: 'boolean' }, 'timeout-ms': { type: 'string' }, projection: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    } catch (error) {
      process.stderr.write(`cadsight cdsl: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    const { values, positionals } = parsed;
    const [sub, target] = positionals;
    if (values.help || !sub) {
      process.stdout.write(USAGE);
      return values.help ? 0 : 2;
    }
    const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
    if (sub === 'contracts') {
      process.stdout.write(contracts(catalog, target));
      return 0;
    }
    if (!target || !['validate', 'build', 'topology'].includes(sub)) {
      process.stderr.write(`cadsight cdsl: unknown or incomplete sub-command\n\n${USAGE}`);
      return 2;
    }
    const document = catalog.validateDocument(await readJson(target, 'document'));
    if (sub === 'validate') {
      process.stdout.write(`valid: ${document.name}, ${document.features.length} feature(s): ${document.features.map((f) => f.atomic_id).join(', ')}\n`);
      return 0;
    }
    const claims = values.claims ? parseClaims(catalog, await readJson(values.claims, 'claims')) : [];
    const timeoutMs = values['timeout-ms'] ? Number(values['timeout-ms']) : undefined;
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new AppError(CdslErrorCode.schemaInvalid, '--timeout-ms must be a positive integer');
    const projection = values.projection;
    if (projection !== undefined && projection !== 'first-angle' && projection !== 'third-angle') throw new AppError(CdslErrorCode.schemaInvalid, '--projection must be first-angle or third-angle');
    return withRuntime(timeoutMs, async (runtime) => {
      if (sub === 'topology') {
        const outcome = await runtime.build(document, { step: false, meshes: false, projections: false });
        const failed = outcome.features.find((f) => f.error);
        if (failed?.error) process.stderr.write(`[${failed.error.code}] ${failed.error.message}\n`);
        if (outcome.snapshot) process.stdout.write(topologyListing(document.name, outcome.snapshot));
        return outcome.ok ? 0 : 1;
      }
      const publisher = values.out ? createFsPublisher(() => new Date()) : undefined;
      const report = await buildDocument(
        { catalog, runtime, ...(publisher ? { publisher, encoders: { glb: encodeGlb, png: renderPng } } : {}) },
        { document, claims, stage: 'final', projectionMethod: projection === 'third-angle' ? 'third_angle' : 'first_angle', ...(values.out ? { outDir: values.out } : {}) },
      );
      process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : humanReport(report));
      return report.ok ? 0 : 1;
    });
  },
};
