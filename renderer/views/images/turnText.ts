/** A turn's text split into what the person wrote and what CadSight's engine added for the model. */
export interface TurnPrompt {
  user: string;
  /** Engine-added instructions (shown muted, never hidden: the transcript stays complete). */
  engine: string | null;
}

interface TurnLike {
  seq: number;
  kind: 'analyze' | 'zoom' | 'video';
  prompt: string;
}

/**
 * The engine prefixes zoom and video questions with one line describing the images, and asks for
 * a SUMMARY line in a session's first question (a paragraph after a blank line).
 */
export function splitTurnPrompt(turn: TurnLike): TurnPrompt {
  if (turn.kind === 'zoom' || turn.kind === 'video') {
    const newline = turn.prompt.indexOf('\n');
    if (newline > 0) return { engine: turn.prompt.slice(0, newline), user: turn.prompt.slice(newline + 1) };
  }
  const cut = turn.prompt.lastIndexOf('\n\n');
  if (turn.seq === 0 && cut > 0 && turn.prompt.slice(cut).includes('SUMMARY:')) {
    return { user: turn.prompt.slice(0, cut), engine: turn.prompt.slice(cut + 2) };
  }
  return { user: turn.prompt, engine: null };
}

/**
 * The reply without the summary the engine asked for (shown as the title instead): picsense-style
 * `<summary>…</summary>` tags anywhere, or a last line that only repeats the session summary.
 */
export function replyWithoutSummary(reply: string, summary: string): string {
  const untagged = reply.replace(/<summary>[\s\S]*?<\/summary>/gi, '').replace(/\n{3,}/g, '\n\n').trim();
  if (untagged !== reply.trim()) return untagged;
  const lines = reply.trimEnd().split('\n');
  const last = lines.at(-1)?.trim() ?? '';
  const match = /^[*_#>\s-]*summary[*_]*\s*[:：][*_]*\s*(.+?)[\s*_]*$/i.exec(last);
  return lines.length > 1 && match && match[1] === summary ? lines.slice(0, -1).join('\n').trimEnd() : reply;
}

/** A session title without markup the model may have put in it (older sessions kept `<summary>` tags). */
export function sessionTitle(summary: string): string {
  return summary.replace(/<\/?summary>/gi, '').replace(/\s+/g, ' ').trim();
}

/**
 * Titles that tell sessions apart: when several sessions share a title, the later ones get
 * " (2)", " (3)"… in order of creation (the oldest keeps the plain title). Keyed by session id.
 */
export function distinctTitles(sessions: readonly { id: string; summary: string; createdAt: number }[], untitled: string): Map<string, string> {
  const seen = new Map<string, number>();
  const titles = new Map<string, string>();
  for (const session of [...sessions].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))) {
    const title = sessionTitle(session.summary) || untitled;
    const count = (seen.get(title) ?? 0) + 1;
    seen.set(title, count);
    titles.set(session.id, count === 1 ? title : `${title} (${count})`);
  }
  return titles;
}

/** A label without its folders; a PDF page keeps its "p.N/M" suffix (which contains a slash). */
export function stripLabel(label: string): string {
  const page = /^(.*?)( p\.\d+\/\d+)$/.exec(label);
  const base = (page ? page[1]! : label).split(/[\\/]/).pop();
  return `${base}${page ? page[2] : ''}`;
}
