import { constants, createDeflate } from 'node:zlib';

/**
 * Hostile PDFs for the render limits, generated at run time (binary streams, so not makePdf):
 * each has a harmless first page and the hostile content on page 2, so errors must name page 2.
 */

/** Deflates `total` bytes of `fill` without ever holding them: chunk by chunk through zlib. */
async function deflatedRepeat(fill: number, total: number): Promise<Buffer> {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const chunk = Buffer.alloc(4 * 2 ** 20, fill);
  for (let written = 0; written < total; written += chunk.length) {
    const part = written + chunk.length <= total ? chunk : chunk.subarray(0, total - written);
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

function deflated(data: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
    const out: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => out.push(chunk));
    deflate.on('end', () => resolve(Buffer.concat(out)));
    deflate.on('error', reject);
    deflate.end(data);
  });
}

/** A two-page PDF whose second page uses `contents` (already-deflated stream) and `xobjects`. */
function assemble(page2: { contents: Buffer; image?: { width: number; height: number; bits: number; data: Buffer } }): Uint8Array {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  const object = (number: number, dict: string, stream?: Buffer) => {
    offsets[number] = length;
    push(`${number} 0 obj\n${dict}\n`);
    if (stream) {
      push('stream\n');
      push(stream);
      push('\nendstream\n');
    }
    push('endobj\n');
  };
  push('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n');
  const page1Content = Buffer.from('BT /F1 24 Tf 60 500 Td (Harmless first page) Tj ET');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 842 595] /Resources << /Font << /F1 7 0 R >> >> /Contents 4 0 R >>');
  object(4, `<< /Length ${page1Content.length} >>`, page1Content);
  const xobject = page2.image ? ' /XObject << /Im1 8 0 R >>' : '';
  object(5, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 842 595] /Resources << /Font << /F1 7 0 R >>${xobject} >> /Contents 6 0 R >>`);
  object(6, `<< /Length ${page2.contents.length} /Filter /FlateDecode >>`, page2.contents);
  object(7, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const count = page2.image ? 9 : 8;
  if (page2.image) {
    const { width, height, bits, data } = page2.image;
    object(8, `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent ${bits} /Length ${data.length} /Filter /FlateDecode >>`, data);
  }
  const xref = length;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let n = 1; n < count; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}

/** Page 2 paints a 20000×20000 1-bit scan (50 MB decoded from ≈ 50 KB): an image bomb. */
export async function imageBombPdf(): Promise<Uint8Array> {
  const side = 20_000;
  const contents = await deflated(Buffer.from('q 800 0 0 550 20 20 cm /Im1 Do Q'));
  return assemble({ contents, image: { width: side, height: side, bits: 1, data: await deflatedRepeat(0x55, (side / 8) * side) } });
}

/** Page 2 holds `fills` tiny filled rectangles (3 million by default): a parse/paint bomb. */
export async function fillsBombPdf(fills = 3_000_000): Promise<Uint8Array> {
  const lines: string[] = [];
  for (let i = 0; i < fills; i++) lines.push(`${i % 800} ${(i * 7) % 560} 1 1 re f`);
  return assemble({ contents: await deflated(Buffer.from(lines.join('\n'), 'latin1')) });
}

/** Page 2's content stream inflates to `inflatedBytes` (1.2 GB by default) of spaces: a Flate bomb. */
export async function flateBombPdf(inflatedBytes = 1_200_000_000): Promise<Uint8Array> {
  return assemble({ contents: await deflatedRepeat(0x20, inflatedBytes) });
}
