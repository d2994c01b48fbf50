/** Path flavour: POSIX (case-sensitive, "/") or Windows (case-insensitive, "\" or "/"). */
export type PathStyle = 'posix' | 'windows';

/**
 * Splits an absolute path into normalized components ("." dropped, ".." applied, never above
 * the root). The first component is the root: "" for POSIX, the drive ("c:") or UNC host for Windows.
 */
export function pathComponents(path: string, style: PathStyle): string[] {
  const parts = style === 'windows' ? path.split(/[\\/]+/) : path.split('/');
  const [root = '', ...rest] = parts;
  const out: string[] = [];
  for (const part of rest) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  const normalizedRoot = style === 'windows' ? root.toLowerCase() : root;
  return [normalizedRoot, ...(style === 'windows' ? out.map((p) => p.toLowerCase()) : out)];
}

/**
 * True when `candidate` is `root` or lies below it, compared component by component (so
 * "/data/images-evil" is NOT inside "/data/images"). Both paths must be absolute and already
 * resolved with realpath by the caller, so symlinks cannot escape.
 */
export function isPathInside(root: string, candidate: string, style: PathStyle): boolean {
  const rootParts = pathComponents(root, style);
  const candidateParts = pathComponents(candidate, style);
  if (candidateParts.length < rootParts.length) return false;
  return rootParts.every((part, i) => part === candidateParts[i]);
}
