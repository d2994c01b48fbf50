import { looksLikeBase64 } from './base64';
import { visionError } from './errors';

/** What an image source string denotes. Classification is pure: nothing is read or fetched. */
export type ClassifiedSource =
  | { kind: 'url'; url: string }
  | { kind: 'path'; path: string; style: 'posix' | 'windows' | 'home' | 'relative' }
  | { kind: 'fileUrl'; url: string }
  | { kind: 'dataUri'; mimeType: string; base64: string }
  | { kind: 'base64'; base64: string };

/** Bare base64 shorter than this is treated as a (relative) path: no real image is this small. */
const MIN_BARE_BASE64_LENGTH = 64;
const WINDOWS_DRIVE = /^[a-zA-Z]:[\\/]/;
const WINDOWS_UNC = /^\\\\[^\\]/;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Classifies an image source the way agents send them: http(s) URLs (ZCode), local paths
 * (Claude Code, Codex, OpenCode; `~`, `file://` and Windows spellings), data URIs, bare
 * base64 (standard or URL-safe). Errors: VISION_SOURCE_INVALID (empty, non-base64 data URI),
 * VISION_URL_BLOCKED (a scheme other than http, https, file, data).
 */
export function classifySource(raw: string): ClassifiedSource {
  const source = raw.trim();
  if (source.length === 0) throw visionError('VISION_SOURCE_INVALID', 'The image source is empty.');
  if (WINDOWS_DRIVE.test(source) || WINDOWS_UNC.test(source)) return { kind: 'path', path: source, style: 'windows' };
  const scheme = SCHEME.exec(source)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return { kind: 'url', url: source };
  if (scheme === 'file') return { kind: 'fileUrl', url: source };
  if (scheme === 'data') return parseDataUri(source);
  if (source.startsWith('~')) return { kind: 'path', path: source, style: 'home' };
  // Bare base64 of a JPEG starts with "/9j/", which would otherwise read as an absolute path.
  if (source.startsWith('/9j/') && source.length >= MIN_BARE_BASE64_LENGTH && looksLikeBase64(source)) return { kind: 'base64', base64: source };
  if (source.startsWith('/')) return { kind: 'path', path: source, style: 'posix' };
  if (source.startsWith('./') || source.startsWith('../') || source.startsWith('.\\') || source.startsWith('..\\')) {
    return { kind: 'path', path: source, style: 'relative' };
  }
  if (source.length >= MIN_BARE_BASE64_LENGTH && looksLikeBase64(source)) return { kind: 'base64', base64: source };
  // A colon after 2+ letters that is not a known scheme (javascript:, ftp:) is refused, not read as a path.
  if (scheme !== undefined && scheme.length > 1) {
    throw visionError('VISION_URL_BLOCKED', `The "${scheme}:" scheme is not supported; use http(s), a file path, a data URI or base64.`, { scheme });
  }
  return { kind: 'path', path: source, style: 'relative' };
}

function parseDataUri(source: string): ClassifiedSource {
  const comma = source.indexOf(',');
  if (comma < 0) throw visionError('VISION_SOURCE_INVALID', 'The data URI has no comma separating its header from the data.');
  const header = source.slice(5, comma).toLowerCase();
  const params = header.split(';');
  if (!params.includes('base64')) {
    throw visionError('VISION_SOURCE_INVALID', 'Only base64 data URIs are accepted (data:image/png;base64,...).');
  }
  return { kind: 'dataUri', mimeType: params[0] ?? '', base64: source.slice(comma + 1) };
}

/**
 * A short, secret-free label for a source, for session lists and logs: data and base64
 * collapse to their size, URLs lose query strings (signed URLs carry credentials there).
 */
export function shortenSource(raw: string, maxLength = 120): string {
  const source = raw.trim();
  let label: string;
  try {
    const classified = classifySource(source);
    if (classified.kind === 'dataUri') label = `data:${classified.mimeType};base64 (${approxKb(classified.base64.length)} KB)`;
    else if (classified.kind === 'base64') label = `base64 (${approxKb(source.length)} KB)`;
    else if (classified.kind === 'url') label = stripQuery(classified.url);
    else label = source;
  } catch {
    label = source.startsWith('data:') ? 'data URI' : source;
  }
  return label.length <= maxLength ? label : `${label.slice(0, maxLength - 1)}…`;
}

function approxKb(base64Length: number): number {
  return Math.max(1, Math.round((base64Length * 3) / 4 / 1024));
}

function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : `${url.slice(0, cut)}?…`;
}

const LABEL_SUFFIX = /^(.*?)((?: p\.\d+\/\d+)|(?: @ \d+(?:\.\d+)?s))?$/s;

/** The file name a source label ends in: no directories, hosts, user names or drive letters. */
function neutralSourceName(source: string): string {
  if (/^(data:|base64 )/i.test(source)) return 'inline image';
  let pathPart = source;
  if (/^https?:\/\//i.test(source)) {
    try {
      const url = new URL(source);
      pathPart = url.pathname;
      if (pathPart.replace(/\/+$/, '') === '') return 'web image';
    } catch {
      return 'web image';
    }
  } else if (/^file:/i.test(source)) pathPart = source.replace(/^file:\/*/i, '/');
  const name = pathPart.split(/[\\/]/).filter((part) => part !== '').at(-1) ?? pathPart;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * What the model is told an image is called: its file name plus the page or frame suffix
 * ("part.png", "set.pdf p.2/3", "clip.mp4 @ 1.0s"). Absolute paths, URLs' hosts and folders —
 * which name users, customers and projects — stay on this machine. Other labels (zoom crops)
 * carry no source and are returned as they are.
 */
export function neutralLabel(label: string): string {
  const [, source = label, suffix = ''] = LABEL_SUFFIX.exec(label) ?? [];
  if (!/^(data:|base64 |https?:|file:|~|\/|\.{1,2}[\\/]|[a-zA-Z]:[\\/]|\\\\)/i.test(source) && !/[\\/]/.test(source)) return label;
  return `${neutralSourceName(source)}${suffix}`;
}
