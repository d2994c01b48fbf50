/**
 * Hand-written PDFs for tests (generated at run time): pages with a drawing frame, lines and a
 * text line in Helvetica, optionally "encrypted" with a Standard security handler whose user
 * password is not empty, so a reader must ask for it.
 */
export interface PdfPageSpec {
  text: string;
  /** Page size in points (1/72 inch); default A4 landscape. */
  width?: number;
  height?: number;
}

const escapeText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

export function makePdf(pages: PdfPageSpec[], options: { encrypted?: boolean } = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1; // 1-based object number
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const page of pages) {
    const w = page.width ?? 842;
    const h = page.height ?? 595;
    const content = [
      '2 w 20 20 m', `${w - 20} 20 l ${w - 20} ${h - 20} l 20 ${h - 20} l h S`,
      `0.8 0 0 RG 60 60 m ${w - 60} ${h - 120} l S`,
      `BT /F1 28 Tf 60 ${h - 80} Td (${escapeText(page.text)}) Tj ET`,
    ].join('\n');
    const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const encrypt = options.encrypted ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> >>`) : undefined;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const id = '<0123456789abcdef0123456789abcdef>';
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encrypt ? ` /Encrypt ${encrypt} 0 R /ID [${id} ${id}]` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
