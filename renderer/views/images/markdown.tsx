import { Fragment, type ReactNode } from 'react';

/**
 * A small, safe Markdown subset for model answers: headings, paragraphs, bullet and numbered
 * lists, fenced code, tables, **bold**, *italic*, `code`. Everything becomes React elements
 * with text children, so no HTML in an answer is ever interpreted (no innerHTML anywhere) and
 * links are shown as text, not followed.
 */
export type MdBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'table'; header: string[]; rows: string[][] };

const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const isTableRule = (line: string) => /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);

/** Splits Markdown text into blocks (pure: tested without a DOM). */
export function parseMarkdown(source: string): MdBlock[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MdBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]!); i++) body.push(lines[i]!);
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]!.trim() });
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1]!);
      const last = blocks.at(-1);
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(item[2]!);
      else blocks.push({ kind: 'list', ordered, items: [item[2]!] });
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && isTableRule(lines[i + 1]!)) {
      flush();
      const header = cells(line);
      const rows: string[][] = [];
      for (i += 2; i < lines.length && lines[i]!.includes('|') && lines[i]!.trim() !== ''; i++) rows.push(cells(lines[i]!));
      i--;
      blocks.push({ kind: 'table', header, rows });
      continue;
    }
    if (line.trim() === '') flush();
    else {
      const last = blocks.at(-1);
      // A lazy continuation line of a list item.
      if (paragraph.length === 0 && last?.kind === 'list' && /^\s+\S/.test(line)) last.items[last.items.length - 1] += ` ${line.trim()}`;
      else paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** Inline spans: `code`, **bold**, *italic* / _italic_; everything else is plain text. */
export function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_/g;
  let at = 0;
  let key = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) out.push(text.slice(at, match.index));
    if (match[1] !== undefined) out.push(<code key={key++}>{match[1]}</code>);
    else if (match[2] !== undefined || match[3] !== undefined) out.push(<strong key={key++}>{match[2] ?? match[3]}</strong>);
    else out.push(<em key={key++}>{match[4] ?? match[5]}</em>);
    at = match.index + match[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Renders an answer's Markdown as React elements. */
export function Markdown({ source }: { source: string }) {
  return (
    <div className="vision-markdown">
      {parseMarkdown(source).map((block, i) => {
        switch (block.kind) {
          case 'heading': {
            const Tag = `h${Math.min(6, block.level + 2)}` as 'h3';
            return <Tag key={i}>{inline(block.text)}</Tag>;
          }
          case 'paragraph':
            return (
              <p key={i}>
                {block.text.split('\n').map((line, j) => (
                  <Fragment key={j}>
                    {j > 0 && <br />}
                    {inline(line)}
                  </Fragment>
                ))}
              </p>
            );
          case 'list': {
            const items = block.items.map((text, j) => <li key={j}>{inline(text)}</li>);
            return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
          }
          case 'code':
            return (
              <pre key={i}>
                <code>{block.text}</code>
              </pre>
            );
          case 'table':
            return (
              <table key={i}>
                <thead>
                  <tr>{block.header.map((cell, j) => <th key={j}>{inline(cell)}</th>)}</tr>
                </thead>
                <tbody>
                  {block.rows.map((row, r) => (
                    <tr key={r}>{row.map((cell, j) => <td key={j}>{inline(cell)}</td>)}</tr>
                  ))}
                </tbody>
              </table>
            );
        }
      })}
    </div>
  );
}
