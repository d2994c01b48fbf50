import { describe, expect, it } from 'vitest';
import { OCCT_OPERATION_IDS } from '../../adapters/occt/operationIds';
import { schemaExample } from '../../domain/protocol/schemaExample';
import { createCdslCatalog } from '../cdslCatalog';
import { conformanceTools } from './conformance';

describe('generation conformance suite', () => {
  it('has a valid example instance for every fixed tool and every offered operation fragment schema', () => {
    const catalog = createCdslCatalog(OCCT_OPERATION_IDS);
    const tools = conformanceTools(catalog, (schema, value, path) => catalog.validator.issues(schema, value, path));
    const fragments = tools.filter((t) => t.name === 'submit_cdsl_fragment');
    expect(fragments).toHaveLength(catalog.contracts.size);
    expect(new Set(tools.filter((t) => t.name !== 'submit_cdsl_fragment').map((t) => t.name)).size).toBe(14);
    for (const tool of tools) {
      const example = schemaExample(tool.parameters);
      const result = tool.validate(example);
      expect(result.ok, `${tool.name} ${String(JSON.stringify(example)).slice(0, 200)} ${JSON.stringify(result)}`.slice(0, 600)).toBe(true);
    }
  });
});
