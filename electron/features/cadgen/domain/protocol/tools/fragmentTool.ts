import type { JsonSchema } from '../../contracts/schemaParts';
import type { ExposedTool, SchemaCheck } from './toolKit';

export interface FragmentCall {
  working_head: string;
  contract_hash: string;
  snapshot_id: string | null;
  fragment: unknown;
}

/**
 * submit_cdsl_fragment: the schema is generated from the pending operation's contract (token
 * enums of the inspected snapshot) and wrapped with consts binding head, contract hash and
 * snapshot, so a call made against older facts fails canonically before anything is built.
 */
export function submitFragmentTool(facts: { head: string; contractHash: string; snapshotId: string | null; fragmentSchema: JsonSchema; check: SchemaCheck }): ExposedTool<FragmentCall> {
  // The marker and title say nothing the tool name does not; every byte here is sent each fragment turn.
  const { $schema: _marker, title: _title, $defs, ...fragment } = facts.fragmentSchema;
  const parameters: JsonSchema = {
    type: 'object',
    properties: {
      working_head: { const: facts.head },
      contract_hash: { const: facts.contractHash },
      snapshot_id: facts.snapshotId === null ? { type: 'null' } : { const: facts.snapshotId },
      fragment,
    },
    required: ['working_head', 'contract_hash', 'snapshot_id', 'fragment'],
    additionalProperties: false,
    // The fragment's `$ref`s point at the root: its shared definitions move up with it.
    ...($defs ? { $defs } : {}),
  };
  return {
    name: 'submit_cdsl_fragment',
    role: 'author',
    description: 'Submit the pending action\'s CDSL fragment in its contract shape.',
    parameters,
    validate(value) {
      const issues = facts.check(parameters, value, '');
      return issues.length > 0 ? { ok: false, issues } : { ok: true, value: value as FragmentCall };
    },
  };
}
