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
  const { $schema: _ignored, ...fragment } = facts.fragmentSchema;
  const parameters: JsonSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      working_head: { const: facts.head },
      contract_hash: { const: facts.contractHash },
      snapshot_id: facts.snapshotId === null ? { type: 'null' } : { const: facts.snapshotId },
      fragment,
    },
    required: ['working_head', 'contract_hash', 'snapshot_id', 'fragment'],
    additionalProperties: false,
  };
  return {
    name: 'submit_cdsl_fragment',
    role: 'author',
    description: 'Submit the CDSL fragment of the pending action, exactly in its operation contract shape.',
    parameters,
    validate(value) {
      const issues = facts.check(parameters, value, '');
      return issues.length > 0 ? { ok: false, issues } : { ok: true, value: value as FragmentCall };
    },
  };
}
