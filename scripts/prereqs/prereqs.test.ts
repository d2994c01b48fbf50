import { describe, expect, it } from 'vitest';
import { DEFAULT_CJK_FONT_FILES } from '../../electron/features/drawing/index';
import { CJK_FONT_FILES, PREREQS, planSetup, type Prereq } from './prereqs.mjs';

const byId = (...ids: string[]): Prereq[] => PREREQS.filter((p) => ids.includes(p.id));

describe('test prerequisites', () => {
  it('looks for the CJK font where the drawing renderer loads it from', () => {
    expect(CJK_FONT_FILES).toEqual(DEFAULT_CJK_FONT_FILES);
  });

  it('installs every missing piece with apt-get when it runs as root on Debian', () => {
    const plan = planSetup(byId('chromium', 'python', 'ffmpeg', 'poppler', 'cjkFont'), { ci: true, root: true, hasApt: true });
    expect(plan.apt).toEqual(['chromium', 'python3-ezdxf', 'ffmpeg', 'poppler-utils', 'fonts-noto-cjk']);
    expect(plan.user).toEqual([]);
  });

  it('falls back to Playwright\'s Chromium and a local ezdxf virtualenv for a user without root', () => {
    const plan = planSetup(byId('chromium', 'python', 'ffmpeg'), { ci: false, root: false, hasApt: true });
    expect(plan.apt).toEqual([]);
    expect(plan.user.map((p) => p.id)).toEqual(['chromium', 'python']);
  });

  it('lets only the ezdxf validator be skipped, and only outside CI', () => {
    const missing = byId('python', 'ffmpeg');
    const local = planSetup(missing, { ci: false, root: false, hasApt: false }).after(missing);
    expect(local.fatal.map((p) => p.id)).toEqual(['ffmpeg']);
    expect(local.skippable.map((p) => p.id)).toEqual(['python']);
    const ci = planSetup(missing, { ci: true, root: false, hasApt: false }).after(missing);
    expect(ci.fatal.map((p) => p.id)).toEqual(['python', 'ffmpeg']);
    expect(ci.skippable).toEqual([]);
  });

  it('names an install command for every piece', () => {
    for (const piece of PREREQS) expect(piece.manual.length, piece.id).toBeGreaterThan(0);
  });
});
