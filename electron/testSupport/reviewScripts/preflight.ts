import { PREFLIGHT_FRAME_ID } from '../../features/review/index';
import type { ScriptStep } from '../scriptedProvider/index';

/** The answer a conformant reviewer gives the review's tool-call check before a run. */
export const preflightReply: ScriptStep = { toolCall: { name: 'submit_findings', arguments: { frameId: PREFLIGHT_FRAME_ID, findings: [] } } };
