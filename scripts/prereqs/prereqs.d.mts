// Types of prereqs.mjs (plain JavaScript so npm test can run it before anything is built).
export interface Prereq {
  id: 'chromium' | 'python' | 'ffmpeg' | 'cjkFont';
  what: string;
  required: boolean;
  optionalOutsideCi?: boolean;
  find(env: Record<string, string | undefined>): string | undefined;
  apt?: string;
  userInstall?: { label: string; command: [string, string[]] };
  manual: string[];
}
export const CJK_FONT_FILES: string[];
export const VENV_DIR: string;
export const RESOLVED_FILE: string;
export const PREREQS: Prereq[];
export function planSetup(missing: Prereq[], machine: { ci: boolean; root: boolean; hasApt: boolean }): {
  apt: string[];
  user: Prereq[];
  after(stillMissing: Prereq[]): { fatal: Prereq[]; skippable: Prereq[] };
};
