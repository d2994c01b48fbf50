import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { systemCheckReportSchema } from '../../../shared/ipc/contracts/platform';
import { runDoctor, type DoctorCheck } from './doctorCheck';
import { electronCheck, ffmpegCheck, nodeCheck } from './runtimeChecks';

describe('the system check rows the UI words itself', () => {
  it('carry a finding code with the facts as parameters next to the CLI\'s English detail', async () => {
    const report = await runDoctor([nodeCheck('18.2.0'), electronCheck(() => null), ffmpegCheck('/nonexistent/ffmpeg-for-test')]);
    expect(systemCheckReportSchema.parse(report)).toEqual(report);
    const [node, electron, ffmpeg] = report.items;
    expect(node).toMatchObject({ status: 'fail', detail: 'v18.2.0; CadSight needs ≥ 20.19', finding: { code: 'node-too-old', params: { version: '18.2.0', minimum: '20.19' } } });
    expect(electron).toMatchObject({ status: 'warn', finding: { code: 'electron-missing', params: {} } });
    expect(ffmpeg).toMatchObject({ status: 'warn', finding: { code: 'ffmpeg-missing', params: { path: '/nonexistent/ffmpeg-for-test' } } });
  });

  it('give a check that threw its typed error code, and an untyped throw INTERNAL_ERROR without its message', async () => {
    const throwing = (error: unknown): DoctorCheck => ({ id: 'x', group: 'runtime', label: 'X', run: async () => Promise.reject(error) });
    const report = await runDoctor([throwing(new AppError('CAD_RENDER_FONT_MISSING', 'no CJK font')), throwing(new Error('secret path /home/x'))]);
    expect(report.items[0]).toMatchObject({ status: 'fail', detail: '[CAD_RENDER_FONT_MISSING] no CJK font', finding: { code: 'check-error', params: { code: 'CAD_RENDER_FONT_MISSING' } } });
    expect(report.items[1]!.finding).toEqual({ code: 'check-error', params: { code: 'INTERNAL_ERROR' } });
    expect(JSON.stringify(report.items[1])).not.toContain('secret path');
    expect(report.ok).toBe(false);
  });
});
