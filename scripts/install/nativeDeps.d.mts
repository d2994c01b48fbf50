/** Types for nativeDeps.mjs (plain JS so `npm install` runs it before TypeScript tooling is built). */
export function sqliteBindingLoads(): boolean;
export function localNodeHeadersDir(execPath?: string, version?: string): string | null;
export function ensureSqliteBinding(log?: (line: string) => void): boolean;
export function electronBinary(): string | null;
export function installElectronBinary(log?: (line: string) => void): 'present' | 'skipped' | 'downloaded' | 'failed' | 'not-installed';
