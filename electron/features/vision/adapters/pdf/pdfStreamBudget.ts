import { constants, createInflate } from 'node:zlib';

/** One indirect object as it sits uncompressed in the file: its dictionary text and stream bytes. */
interface RawObject {
  dict: string;
  stream?: { start: number; end: number };
}

/** What the document's Flate streams inflate to, and the first object that broke the budget. */
export interface StreamBudgetResult {
  decodedBytes: number;
  /** Object number of the stream that crossed the budget, when one did. */
  overBudgetObject?: number;
}

const OBJECT_HEADER = /(\d+)\s+\d+\s+obj\b/g;

/** Reads the top-level objects of a PDF (objects inside object streams carry no streams). */
function rawObjects(text: string): Map<number, RawObject> {
  const objects = new Map<number, RawObject>();
  OBJECT_HEADER.lastIndex = 0;
  for (let match = OBJECT_HEADER.exec(text); match; match = OBJECT_HEADER.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endobj', start);
    const streamAt = text.indexOf('stream', start);
    if (streamAt !== -1 && (end === -1 || streamAt < end)) {
      const dict = text.slice(start, streamAt);
      let dataStart = streamAt + 6;
      if (text[dataStart] === '\r') dataStart++;
      if (text[dataStart] === '\n') dataStart++;
      // A direct /Length is exact; an indirect one (or none) falls back to the keyword, which a
      // stream's own bytes could contain, so the direct length is preferred.
      const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
      const byKeyword = text.indexOf('endstream', dataStart);
      const dataEnd = direct ? Math.min(text.length, dataStart + Number(direct[1])) : byKeyword === -1 ? text.length : byKeyword;
      objects.set(Number(match[1]), { dict, stream: { start: dataStart, end: dataEnd } });
      const after = text.indexOf('endobj', dataEnd);
      OBJECT_HEADER.lastIndex = after === -1 ? text.length : after;
    } else {
      objects.set(Number(match[1]), { dict: text.slice(start, end === -1 ? undefined : end) });
      if (end !== -1) OBJECT_HEADER.lastIndex = end;
    }
  }
  return objects;
}

/** Bytes a Flate stream inflates to, counted chunk by chunk and abandoned past `limit`. */
function inflatedSize(data: Uint8Array, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let total = 0;
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        inflate.destroy();
        resolve(total);
      }
    });
    inflate.on('end', () => resolve(total));
    // A damaged stream is pdf.js's business (it reports the page); only the size matters here.
    inflate.on('error', () => resolve(total));
    inflate.end(data);
  });
}

/**
 * Decoded-bytes cap applied before pdf.js parses anything: pdf.js inflates a stream into one
 * growing buffer, so a 1 MB "Flate bomb" would otherwise become a gigabyte in memory. Counts
 * every FlateDecode stream's inflated size (without keeping it) until `maxDecodedBytes` is
 * passed.
 */
export async function measureStreamBudget(bytes: Uint8Array, maxDecodedBytes: number): Promise<StreamBudgetResult & { objects: Map<number, RawObject> }> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const objects = rawObjects(text);
  let decodedBytes = 0;
  for (const [number, object] of objects) {
    if (!object.stream || !/\/(FlateDecode|Fl)\b/.test(object.dict)) continue;
    decodedBytes += await inflatedSize(bytes.subarray(object.stream.start, object.stream.end), maxDecodedBytes - decodedBytes);
    if (decodedBytes > maxDecodedBytes) return { decodedBytes, overBudgetObject: number, objects };
  }
  return { decodedBytes, objects };
}

/**
 * The first page (1-based, in `pageObjects` order) whose dictionary reaches `target` through
 * its contents, resources and XObjects (never through /Parent, which reaches every page).
 */
export function pageReaching(objects: Map<number, RawObject>, pageObjects: number[], target: number): number | undefined {
  const refs = (number: number): number[] => {
    const dict = (objects.get(number)?.dict ?? '').replace(/\/Parent\s+\d+\s+\d+\s+R/g, '');
    return [...dict.matchAll(/(\d+)\s+\d+\s+R\b/g)].map((m) => Number(m[1]));
  };
  for (const [index, page] of pageObjects.entries()) {
    const seen = new Set<number>([page]);
    let frontier = [page];
    for (let depth = 0; depth < 6 && frontier.length > 0; depth++) {
      const next: number[] = [];
      for (const number of frontier) {
        for (const ref of refs(number)) {
          if (ref === target) return index + 1;
          if (!seen.has(ref)) {
            seen.add(ref);
            next.push(ref);
          }
        }
      }
      frontier = next;
    }
  }
  return undefined;
}
