import type { ScriptStep } from './types';

/**
 * Replies of a model that passes the platform conformance suite (runLlmConformance): plain text,
 * an image answer, the forced tool call (raw arguments with odd spacing kept), and a tool loop.
 */
export const CONFORMING_MODEL_SCRIPT: ScriptStep[] = [
  { text: 'pong' },
  { text: 'Red.' },
  { toolCall: { name: 'record_measurement', arguments: '{"unit":"mm",  "value":12}' } },
  { toolCall: { name: 'get_hole_count', arguments: { part_id: 'FL-120' } } },
  { text: 'Part FL-120 has 7 holes.' },
];
