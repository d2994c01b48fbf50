import type { Point } from './geometry';
import { sha256Hex } from './sha256';

/** Prefix of a geometry fingerprint standing in for a missing handle ("entity:fp:1a2b…"). */
export const FINGERPRINT_PREFIX = 'fp:';

export const isFingerprint = (key: string): boolean => key.startsWith(FINGERPRINT_PREFIX);

/**
 * Identity of entities within one backend answer: the handle when the file has one, otherwise a
 * geometry fingerprint (type + location rounded to 1e-4), so recovered drawings and R12 files
 * without handles keep one finding per entity. Identical handle-less entities (exact duplicates)
 * get an ordinal in answer order ("fp:…#2"). One keyer per answer: ordinals restart each time.
 */
export function entityKeyer(): (handle: string, type: string, at: Point | undefined) => string {
  const seen = new Map<string, number>();
  return (handle, type, at) => {
    if (handle.trim() !== '') return handle;
    const r = (n: number): string => (Math.round(n * 1e4) / 1e4).toFixed(4);
    const base = `${FINGERPRINT_PREFIX}${sha256Hex(`${type.toUpperCase()}|${at ? `${r(at.x)},${r(at.y)}` : '?'}`).slice(0, 12)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  };
}

/** How a finding names an entity: "句柄 1A" / "handle 1A", or its place when it has no handle. */
export function entityLabel(locale: 'zh-CN' | 'en', key: string, at: Point): string {
  const place = `(${Math.round(at.x * 100) / 100}, ${Math.round(at.y * 100) / 100})`;
  if (isFingerprint(key)) return locale === 'zh-CN' ? `无句柄，位于 ${place}` : `no handle, at ${place}`;
  return locale === 'zh-CN' ? `句柄 ${key}` : `handle ${key}`;
}
