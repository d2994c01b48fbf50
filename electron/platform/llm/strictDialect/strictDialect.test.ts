import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileAnthropicStrict, compileGeminiSchema, compileOpenAiStrict, openAiStrictIssues, restoreOptionals, toStrictInstance, type SchemaNode } from './index';

/** A canonical schema in the product's style: closed objects, a oneOf union, a tuple, optional fields, string and array bounds. */
const canonical: SchemaNode = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 40, description: 'label' },
    note: { type: 'string' },
    origin: { type: 'array', prefixItems: [{ type: 'number', minimum: -10, maximum: 10 }, { type: 'number', minimum: -10, maximum: 10 }], items: false, minItems: 2, maxItems: 2 },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, uniqueItems: true, minItems: 2, maxItems: 5 },
    extent: {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'one_sided' }, distance_mm: { type: 'number', exclusiveMinimum: 0 }, reverse: { type: 'boolean' } }, required: ['kind', 'distance_mm'], additionalProperties: false },
        { type: 'object', properties: { kind: { const: 'symmetric' }, distance_mm: { type: 'number', exclusiveMinimum: 0 } }, required: ['kind', 'distance_mm'], additionalProperties: false },
      ],
    },
    nullable_note: { type: ['string', 'null'] },
  },
  required: ['name', 'origin', 'extent'],
  additionalProperties: false,
};

const walk = (node: unknown, visit: (node: SchemaNode) => void): void => {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (typeof node === 'object' && node !== null) {
    visit(node as SchemaNode);
    Object.values(node).forEach((n) => walk(n, visit));
  }
};

describe('OpenAI strict dialect', () => {
  const strict = compileOpenAiStrict(canonical);

  it('is accepted by the strict-subset check while the canonical schema is refused with the provider wording', () => {
    expect(openAiStrictIssues(strict)).toEqual([]);
    const refused = openAiStrictIssues(canonical);
    expect(refused).toEqual(expect.arrayContaining([expect.stringContaining("'$schema' is not permitted"), expect.stringContaining("'oneOf' is not permitted"), expect.stringContaining("'prefixItems' is not permitted"), expect.stringContaining("'required' is required to be supplied")]));
  });

  it('lists every property as required and makes exactly the optional ones nullable', () => {
    expect(strict.required).toEqual(Object.keys(canonical.properties as object));
    const properties = strict.properties as Record<string, SchemaNode>;
    expect(properties.note).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(properties.name).toEqual({ type: 'string', description: 'label (minLength 1, maxLength 40)' });
    const oneSided = ((properties.extent as SchemaNode).anyOf as SchemaNode[])[0] as SchemaNode;
    expect(oneSided.required).toEqual(['kind', 'distance_mm', 'reverse']);
    expect((oneSided.properties as Record<string, SchemaNode>).reverse).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'null' }] });
  });

  it('uses anyOf for unions, additionalProperties false on every object and items with a fixed length for tuples', () => {
    walk(strict, (node) => {
      expect(node).not.toHaveProperty('oneOf');
      if (node.type === 'object') expect(node.additionalProperties).toBe(false);
    });
    expect((strict.properties as Record<string, SchemaNode>).origin).toEqual({ type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', minimum: -10, maximum: 10 } });
  });

  it('refuses schemas past the documented size limits (nesting depth, enum values, properties)', () => {
    let deep: SchemaNode = { type: 'string' };
    for (let i = 0; i < 11; i += 1) deep = { type: 'object', properties: { x: deep }, required: ['x'], additionalProperties: false };
    expect(openAiStrictIssues(deep)).toEqual([expect.stringContaining('11 levels of nesting exceeds limit of 10')]);
    const enums: SchemaNode = { type: 'object', properties: { e: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } }, required: ['e'], additionalProperties: false };
    expect(openAiStrictIssues(enums)).toEqual([expect.stringContaining('at most 1000 enum values')]);
    const wide: SchemaNode = { type: 'object', properties: Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: 'number' }])), required: Array.from({ length: 5001 }, (_, i) => `p${i}`), additionalProperties: false };
    expect(openAiStrictIssues(wide)).toEqual([expect.stringContaining('at most 5000 object properties')]);
    expect(openAiStrictIssues({ anyOf: [{ type: 'object' }] })[0]).toContain("type: \"object\"");
  });

  it('maps the nulls of absent optionals back before canonical validation, also inside union branches', () => {
    const sent = { name: 'x', note: null, origin: [1, 2], tags: null, extent: { kind: 'one_sided', distance_mm: 3, reverse: null }, nullable_note: null };
    expect(restoreOptionals(canonical, sent)).toEqual({ name: 'x', origin: [1, 2], extent: { kind: 'one_sided', distance_mm: 3 }, nullable_note: null });
  });

  it('round-trips any canonical instance through its strict wire form (property)', () => {
    const instance = fc.record(
      {
        name: fc.string({ minLength: 1, maxLength: 40 }),
        note: fc.string(),
        origin: fc.tuple(fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 })),
        tags: fc.array(fc.constantFrom('a', 'b'), { minLength: 2, maxLength: 2 }),
        // An optional property that itself accepts null is sent as is (absent and null are both valid there).
        nullable_note: fc.option(fc.string()),
        extent: fc.oneof(fc.record({ kind: fc.constant('one_sided'), distance_mm: fc.integer({ min: 1, max: 9 }), reverse: fc.boolean() }, { requiredKeys: ['kind', 'distance_mm'] }), fc.record({ kind: fc.constant('symmetric'), distance_mm: fc.integer({ min: 1, max: 9 }) })),
      },
      { requiredKeys: ['name', 'origin', 'extent', 'nullable_note'] },
    );
    fc.assert(fc.property(instance, (value) => {
      const wire = toStrictInstance(canonical, value) as Record<string, unknown>;
      expect(Object.keys(wire).sort()).toEqual(Object.keys(canonical.properties as object).sort());
      expect(restoreOptionals(canonical, wire)).toEqual(value);
    }));
  });
});

/** The canonical schema with its union kept once under $defs and referenced twice (how fragment schemas share a sketch shape). */
const withDefs: SchemaNode = {
  type: 'object',
  properties: { first: { $ref: '#/$defs/extent' }, second: { $ref: '#/$defs/extent' } },
  required: ['first'],
  additionalProperties: false,
  $defs: { extent: (canonical.properties as Record<string, SchemaNode>).extent! },
};

describe('local definitions in the strict dialects', () => {
  it('compiles $defs in place (OpenAI), so both references land on one strict definition and the subset check accepts it', () => {
    const strict = compileOpenAiStrict(withDefs);
    expect(openAiStrictIssues(strict)).toEqual([]);
    expect(JSON.stringify(strict)).not.toContain('oneOf');
    expect((strict.properties as Record<string, SchemaNode>).second).toEqual({ anyOf: [{ $ref: '#/$defs/extent' }, { type: 'null' }] });
    expect(JSON.stringify(strict).split('one_sided').length - 1).toBe(1);
  });

  it('refuses a reference that names no definition of the root, as OpenAI does', () => {
    const strict = compileOpenAiStrict({ ...withDefs, $defs: {} });
    expect(openAiStrictIssues(strict)).toEqual(expect.arrayContaining([expect.stringContaining("reference #/$defs/extent can't be resolved")]));
  });

  it('compiles $defs in place (Anthropic): no oneOf or numeric bounds survive inside them', () => {
    const strict = compileAnthropicStrict(withDefs);
    const extent = (strict.$defs as Record<string, SchemaNode>).extent!;
    expect(Object.keys(extent)).toEqual(['anyOf']);
    expect(JSON.stringify(extent)).not.toContain('exclusiveMinimum"');
  });
});

describe('Anthropic strict tool-use dialect', () => {
  const strict = compileAnthropicStrict(canonical);

  it('keeps optional properties optional and closes every object', () => {
    expect(strict.required).toEqual(['name', 'origin', 'extent']);
    walk(strict, (node) => {
      if (node.type === 'object') expect(node.additionalProperties).toBe(false);
    });
  });

  it('drops numeric, string and array constraints it does not support into the description, keeping minItems 0 or 1', () => {
    const keys = new Set<string>();
    walk(strict, (node) => Object.keys(node).forEach((k) => keys.add(k)));
    for (const unsupported of ['minimum', 'maximum', 'exclusiveMinimum', 'minLength', 'maxLength', 'maxItems', 'uniqueItems', 'oneOf', 'prefixItems', '$schema']) expect(keys.has(unsupported), unsupported).toBe(false);
    const properties = strict.properties as Record<string, SchemaNode>;
    expect(properties.tags).toMatchObject({ minItems: 1, description: expect.stringContaining('minItems 2') });
    expect(properties.origin).toMatchObject({ items: { type: 'number' }, description: expect.stringContaining('exactly 2 items') });
  });
});

describe('Gemini response-schema dialect', () => {
  const gemini = compileGeminiSchema(canonical);

  it('uses only the documented Schema fields with OpenAPI type names and explicit property order', () => {
    const allowed = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'properties', 'required', 'propertyOrdering', 'items', 'minItems', 'maxItems', 'minimum', 'maximum', 'anyOf']);
    const check = (node: SchemaNode): void => {
      for (const key of Object.keys(node)) expect(allowed.has(key), key).toBe(true);
      if (typeof node.type === 'string') expect(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']).toContain(node.type);
      Object.values((node.properties ?? {}) as Record<string, SchemaNode>).forEach(check);
      if (node.items) check(node.items as SchemaNode);
      ((node.anyOf ?? []) as SchemaNode[]).forEach(check);
    };
    check(gemini);
    expect(gemini.propertyOrdering).toEqual(Object.keys(canonical.properties as object));
  });

  it('turns a string const into a one-value enum, a nullable type into nullable, and exclusive bounds into inclusive ones noted in the description', () => {
    const properties = gemini.properties as Record<string, SchemaNode>;
    const oneSided = ((properties.extent as SchemaNode).anyOf as SchemaNode[])[0] as SchemaNode;
    expect((oneSided.properties as Record<string, SchemaNode>).kind).toEqual({ type: 'STRING', enum: ['one_sided'] });
    expect((oneSided.properties as Record<string, SchemaNode>).distance_mm).toEqual({ type: 'NUMBER', minimum: 0, description: '(> 0)' });
    expect(properties.nullable_note).toEqual({ type: 'STRING', nullable: true });
  });
});
