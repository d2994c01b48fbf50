import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { cadConnectionViewSchema, drawingOverviewSchema, drawingSourceViewSchema } from '../../../shared/ipc/contracts/review';
import { MAX_DXF_UPLOAD_BYTES } from '../../../shared/ipc/contracts/review';
import { AppError } from '../../../shared/errors';
import { isLoopbackHost } from '../../../shared/localNetwork';
import { openDxfBackend, type CadConnectionStateEvent, type ToolProvider } from '../../features/cadlink/index';
import type { DrawingSource, DrawingWriteTarget } from '../../features/review/index';
import { writeFileAtomicSync } from '../../platform/dataDir/fileSafety';
import type { Logger } from '../../platform/log/types';
import { readOverview } from './reviewOverview';
import { connectAutocad, DXF_CAPABILITIES, readOnlyProviderSource, type AutocadLink } from './reviewSources';

/** Identifies a drawing well enough to reopen it (stored with each run for resume and writes). */
export type DrawingDescriptor = z.infer<typeof drawingSourceViewSchema>;
type ConnectionView = z.input<typeof cadConnectionViewSchema>;
type Overview = z.input<typeof drawingOverviewSchema>;

/** Reader + writer for one approved write; `close` releases a connection opened for it. */
export interface WriteEndpoints {
  reader: DrawingSource;
  target: DrawingWriteTarget;
  /** Where a DXF is saved; null for AutoCAD. */
  saveTo: string | null;
  close(): void;
}

/** The drawing the Review view works on. */
export interface OpenDrawing {
  readonly descriptor: DrawingDescriptor;
  readonly source: DrawingSource;
  connection(): ConnectionView | null;
  writeEndpoints(): Promise<WriteEndpoints>;
  close(): void;
}

export interface DrawingManagerOptions {
  /** `<data>/drawings`: uploaded DXF files and the sample copy live here, each in a content-hash folder. */
  drawingsDir: string;
  /** The bundled sample drawing. */
  sampleFile: string;
  /** AutoCAD host/port from settings; `allowRemote`: browser mode may reach another host. */
  cadDefaults(): { host: string; port: number; allowRemote: boolean };
  onConnection(event: ConnectionView): void;
  log: Logger;
}

/** `<name>.ai-review.dxf` next to `file` (the DXF backend's save_drawing default). */
export const reviewCopyOf = (file: string): string => path.join(path.dirname(file), `${path.basename(file).replace(/\.dxf$/i, '')}.ai-review.dxf`);

/** Where a DXF drawing's annotated copy goes: next to the user's original when known, else next to the data-folder copy. */
export const annotatedCopyOf = (descriptor: Extract<DrawingDescriptor, { kind: 'sample' | 'dxf' }>): string =>
  reviewCopyOf((descriptor.kind === 'dxf' ? descriptor.besideOriginal : undefined) ?? descriptor.path);

export const safeName = (name: string): string => path.basename(name).replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 120) || 'drawing.dxf';

/**
 * Opens a DXF copy in the data folder with the embedded backend. The original is what is viewed
 * and reviewed (reopening a drawing, the sample included, never shows an earlier session's
 * leaders as if they were the author's). Writes go to `<name>.ai-review.dxf`: when an earlier
 * session already saved it, the write opens that file so its leaders stay in the next save and
 * are recognised instead of written twice.
 */
async function openDxfDrawing(descriptor: Extract<DrawingDescriptor, { kind: 'sample' | 'dxf' }>): Promise<OpenDrawing> {
  const beside = descriptor.kind === 'dxf' ? descriptor.besideOriginal : undefined;
  const copy = annotatedCopyOf(descriptor);
  const provider = await openDxfBackend(descriptor.path);
  const source = readOnlyProviderSource(descriptor.label, provider, DXF_CAPABILITIES);
  const targetOn = (served: string, backend: ToolProvider): DrawingWriteTarget => ({
    label: descriptor.label,
    capabilityTools: DXF_CAPABILITIES,
    callTool(name, args) {
      // Always save to the review copy, never to the uploaded original.
      if (name === DXF_CAPABILITIES.save) return backend.callTool(name, { path: copy, overwrite_original: served === copy });
      return backend.callTool(name, args);
    },
  });
  return {
    descriptor,
    source,
    connection: () => null,
    async writeEndpoints() {
      // A fresh backend per write: the leaders written must not linger in the viewed original's session.
      const served = existsSync(copy) ? copy : descriptor.path;
      // The app re-saves its own review copy (in the data folder, or next to the user's original,
      // where it opened that copy first so its leaders are kept), so replacing it is intended.
      const writer = await openDxfBackend(served, { save: { allowOverwrite: true, ...(beside ? { outputDir: path.dirname(beside) } : {}) } });
      return { reader: readOnlyProviderSource(descriptor.label, writer, DXF_CAPABILITIES), target: targetOn(served, writer), saveTo: copy, close: () => undefined };
    },
    close: () => undefined,
  };
}

function autocadDrawing(descriptor: Extract<DrawingDescriptor, { kind: 'cad' }>, link: AutocadLink, last: () => ConnectionView): OpenDrawing {
  return {
    descriptor,
    source: link.source,
    connection: last,
    async writeEndpoints() {
      const writer = link.openWriter();
      return { reader: link.source, target: writer.target, saveTo: null, close: writer.close };
    },
    close: () => link.close(),
  };
}

/** Decodes standard base64 strictly (Buffer.from silently skips invalid characters). */
function decodeBase64(data: string): Buffer {
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
    throw new AppError('REVIEW_UPLOAD_INVALID', 'The file data is not valid base64.');
  }
  return Buffer.from(data, 'base64');
}

/** An uploaded drawing's bytes, checked. Errors: REVIEW_UPLOAD_INVALID (not base64, empty), REVIEW_UPLOAD_TOO_LARGE. */
export function decodeDxfUpload(fileName: string, dataBase64: string): Buffer {
  const bytes = decodeBase64(dataBase64);
  if (bytes.length > MAX_DXF_UPLOAD_BYTES) {
    throw new AppError('REVIEW_UPLOAD_TOO_LARGE', `${fileName} is ${(bytes.length / 1048576).toFixed(1)} MB; the limit is ${MAX_DXF_UPLOAD_BYTES / 1048576} MB. Serve it with \`cadsight dxf-server\` and connect to it instead.`, {
      data: { bytes: bytes.length, limit: MAX_DXF_UPLOAD_BYTES },
    });
  }
  if (bytes.length === 0) throw new AppError('REVIEW_UPLOAD_INVALID', `${fileName} is empty.`);
  return bytes;
}

/**
 * The renderer may name any path, so a path is trusted only when it is an absolute `.dxf` file
 * holding exactly the bytes the user picked (a sandboxed page cannot read other files to forge
 * them). Errors: REVIEW_ORIGINAL_PATH_REFUSED (`data.reason`).
 */
export function confirmOriginal(originalPath: string, bytes: Uint8Array): string {
  const refuse = (reason: string, why: string) =>
    new AppError('REVIEW_ORIGINAL_PATH_REFUSED', `The annotated copy cannot be saved next to ${path.basename(originalPath)}: ${why}. Open the drawing again.`, { data: { reason } });
  if (!path.isAbsolute(originalPath) || !/\.dxf$/i.test(originalPath)) throw refuse('not-a-dxf-path', 'that is not the path of a DXF file');
  let info;
  try {
    info = lstatSync(originalPath);
  } catch {
    throw refuse('missing', 'the file is no longer there');
  }
  if (!info.isFile()) throw refuse('not-a-file', 'that is not a plain file');
  if (info.size !== bytes.length || !readFileSync(originalPath).equals(bytes)) {
    throw refuse('changed', 'the file on disk is not the one that was opened (it changed meanwhile)');
  }
  return originalPath;
}

export interface DrawingManager {
  current(): OpenDrawing | null;
  openSample(): Promise<OpenDrawing>;
  /**
   * `originalPath` (desktop app): the picked file's own path; the annotated copy is saved next to
   * it once `confirmOriginal` accepts it. Errors: REVIEW_UPLOAD_TOO_LARGE, REVIEW_UPLOAD_INVALID,
   * REVIEW_ORIGINAL_PATH_REFUSED, CAD_DWG_UNSUPPORTED, CAD_DXF_INVALID.
   */
  openUpload(fileName: string, dataBase64: string, originalPath?: string): Promise<OpenDrawing>;
  /**
   * A host other than this machine is reached only when the user confirmed it (`confirmRemote`,
   * sent by the renderer after its confirmation step) and, from browser mode (the caller may be
   * any page holding the session), only when settings allow it (`cad.allowRemote`): the UI
   * cannot be used to scan the network. Errors: CAD_HOST_NOT_ALLOWED (`data.reason`:
   * 'browser-mode' or 'needs-confirmation'), CAD_NOT_CONNECTED (with how to start the plugin), CAD_*.
   */
  connectCad(endpoint: { host?: string; port?: number; confirmRemote?: boolean }, options: { transport: 'electron' | 'browser' | 'test' }): Promise<OpenDrawing>;
  /** The current drawing when it is `descriptor`, otherwise opens it (it becomes current). */
  ensure(descriptor: DrawingDescriptor): Promise<OpenDrawing>;
  /**
   * The drawing's overview, read once per opened drawing (frame pictures reuse it); `refresh`
   * reads it again (after a reconnect or an edit in AutoCAD). The connection state is always live.
   */
  overview(drawing: OpenDrawing, options?: { refresh?: boolean }): Promise<Overview>;
  close(): void;
}

export function createDrawingManager(options: DrawingManagerOptions): DrawingManager {
  let current: OpenDrawing | null = null;
  const overviews = new WeakMap<OpenDrawing, Promise<Overview>>();

  const install = (drawing: OpenDrawing): OpenDrawing => {
    if (current !== drawing) current?.close();
    current = drawing;
    return drawing;
  };

  /** Stores bytes under drawings/<sha256-16>/<name> (idempotent) and returns the path. */
  const store = (name: string, bytes: Uint8Array): string => {
    const dir = path.join(options.drawingsDir, createHash('sha256').update(bytes).digest('hex').slice(0, 16));
    const file = path.join(dir, safeName(name));
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      writeFileAtomicSync(file, bytes, 0o644);
    }
    return file;
  };

  const open = async (descriptor: DrawingDescriptor): Promise<OpenDrawing> => {
    if (descriptor.kind !== 'cad') return openDxfDrawing(descriptor);
    let last: ConnectionView = { state: 'connecting', endpoint: descriptor.label, failures: 0 };
    const link = await connectAutocad(
      { host: descriptor.host, port: descriptor.port },
      (event: CadConnectionStateEvent) => {
        last = { ...event };
        options.onConnection(last);
      },
      options.log,
    );
    return autocadDrawing(descriptor, link, () => last);
  };

  const sameDrawing = (a: DrawingDescriptor, b: DrawingDescriptor): boolean =>
    a.kind === 'cad' || b.kind === 'cad' ? a.kind === b.kind && a.label === b.label : a.path === b.path;

  return {
    current: () => current,
    async openSample() {
      if (!existsSync(options.sampleFile)) throw new AppError('REVIEW_SAMPLE_MISSING', `The sample drawing ${options.sampleFile} is missing from this installation.`);
      const file = store(path.basename(options.sampleFile), readFileSync(options.sampleFile));
      return install(await open({ kind: 'sample', label: path.basename(options.sampleFile), path: file }));
    },
    async openUpload(fileName, dataBase64, originalPath) {
      const bytes = decodeDxfUpload(fileName, dataBase64);
      const besideOriginal = originalPath === undefined ? undefined : confirmOriginal(originalPath, bytes);
      const file = store(fileName, bytes);
      return install(await open({ kind: 'dxf', label: path.basename(fileName), path: file, ...(besideOriginal ? { besideOriginal } : {}) }));
    },
    async connectCad(endpoint, { transport }) {
      const defaults = options.cadDefaults();
      const host = endpoint.host ?? defaults.host;
      const port = endpoint.port ?? defaults.port;
      if (!isLoopbackHost(host)) {
        if (transport === 'browser' && !defaults.allowRemote) {
          throw new AppError(
            'CAD_HOST_NOT_ALLOWED',
            `Browser mode connects only to AutoCAD on this machine (127.0.0.1), not ${host}; allow remote AutoCAD in Settings (or set CADSIGHT_CAD_ALLOW_REMOTE=1), use the desktop app, or run \`cadsight review --cad ${host}:${port}\`.`,
            { data: { host, port, reason: 'browser-mode' } },
          );
        }
        if (endpoint.confirmRemote !== true) {
          throw new AppError('CAD_HOST_NOT_ALLOWED', `${host} is not this machine; confirm the connection to AutoCAD on another host first.`, { data: { host, port, reason: 'needs-confirmation' } });
        }
      }
      return install(await open({ kind: 'cad', label: `${host}:${port}`, host, port }));
    },
    async ensure(descriptor) {
      if (current && sameDrawing(current.descriptor, descriptor)) return current;
      if (descriptor.kind !== 'cad' && !existsSync(descriptor.path)) {
        throw new AppError('REVIEW_DRAWING_MISSING', `The drawing of this run (${descriptor.path}) no longer exists.`, { data: { path: descriptor.path } });
      }
      return install(await open(descriptor));
    },
    async overview(drawing, { refresh = false } = {}) {
      let cached = overviews.get(drawing);
      if (!cached || refresh) {
        const reading = readOverview(drawing.source, { source: drawing.descriptor, connection: drawing.connection() });
        cached = reading;
        overviews.set(drawing, reading);
        // A failed read is not kept: the next call asks the backend again.
        reading.catch(() => {
          if (overviews.get(drawing) === reading) overviews.delete(drawing);
        });
      }
      return { ...(await cached), connection: drawing.connection() };
    },
    close() {
      current?.close();
      current = null;
    },
  };
}
