import { connectTcpSocket, createSystemClock, formatEndpoint, verifyConformance, type CadEndpoint } from '../../features/cadlink/index';
import { AppError } from '../../../shared/errors';
import type { DoctorCheck, DoctorOutcome } from './doctorCheck';

/**
 * The AutoCAD plugin address (or a dxf-server there): reachable, then the verify-cad summary.
 * Nothing listening at an address the user did not name explicitly is a warning (AutoCAD may
 * simply be closed); at an explicit one it is a failure.
 */
export function cadCheck(endpoint: CadEndpoint, explicit: boolean): DoctorCheck {
  return {
    id: 'cad',
    group: 'cad',
    label: 'AutoCAD plugin address',
    async run(): Promise<DoctorOutcome> {
      const where = formatEndpoint(endpoint);
      try {
        const report = await verifyConformance({ endpoint, socketFactory: connectTcpSocket, clock: createSystemClock(), replyTimeoutMs: 5000 });
        const passed = report.rows.filter((row) => row.passed).length;
        const failed = report.rows.filter((row) => !row.passed).map((row) => row.id);
        const counts = { address: where, passed, total: report.rows.length };
        return report.passed
          ? { status: 'pass', detail: `${where}: verify-cad ${passed}/${report.rows.length} checks pass`, finding: { code: 'cad-pass', params: counts } }
          : {
              status: 'fail',
              detail: `${where}: verify-cad ${passed}/${report.rows.length} pass; failing: ${failed.join(', ')} (run cadsight verify-cad ${where})`,
              finding: { code: 'cad-fail', params: { ...counts, failing: failed.join(', ') } },
            };
      } catch (error) {
        if (error instanceof AppError && !explicit) {
          return {
            status: 'warn',
            detail: `${where}: not reachable (${error.code}); start AutoCAD with the cad_mcp_frame plugin or cadsight dxf-server`,
            finding: { code: 'cad-unreachable', params: { address: where, code: error.code } },
          };
        }
        throw error;
      }
    },
  };
}
