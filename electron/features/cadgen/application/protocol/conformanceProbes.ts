import { canonicalJson } from '../../domain/canonicalJson';
import { inlineLocalRefs } from '../../domain/contracts/schemaParts';
import type { JsonSchema } from '../../domain/contracts/schemaParts';
import { schemaExample, schemaExamples } from '../../domain/protocol/schemaExample';
import type { ExposedTool } from '../../domain/protocol/tools/toolKit';
import type { LlmToolDefinition } from '../../../../platform/llm/types';

/** One offered schema inside a family probe: its property key, its tool and the examples it must carry back. */
export interface FamilyMember {
  key: string;
  tool: ExposedTool;
  examples: unknown[];
}

/** A schema family: one probe request carries the example sets of all its members. */
export interface SchemaFamily {
  name: string;
  members: FamilyMember[];
  /**
   * The probe tool: one array property per member, each holding that member's examples. A family
   * of compact-offered tools (the claim drafting tools) probes them as they are sent: `parameters`
   * compact, `canonicalParameters` the closed form the answer is judged on (so strict mode sends
   * it not strict, exactly like the tools themselves).
   */
  probe: LlmToolDefinition & { canonicalParameters?: Record<string, unknown> };
  /** What the model is asked to send back through `probe`. */
  expected: Record<string, unknown[]>;
}

/** Which family a tool's schema belongs to; any tool not named here is an `actions` tool. */
const FAMILY_OF: Record<string, string> = {
  submit_requirements_draft_batch: 'claims',
  patch_requirements_draft: 'claims',
  finalize_requirements_draft: 'requirements',
  review_requirements: 'requirements',
  review_candidate: 'reviews',
  review_final: 'reviews',
  submit_cdsl_fragment: 'fragments',
};

/** A schema without its `$schema` marker (only meaningful at a document root, and refused by strict dialects). */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _marker, ...rest } = schema;
  return rest;
}

/**
 * The schema a tool is validated against (`canonical`: the full closed one where the offered one
 * is compact, e.g. the claim oneOf) or the one it is sent with (`offered`), with its local `#/$defs/<name>` references inlined: nested inside a
 * probe's array items, a reference would otherwise point at the probe's root, which has no $defs.
 */
export function probeSchemaOf(tool: ExposedTool, form: 'canonical' | 'offered' = 'canonical'): JsonSchema {
  return bare(inlineLocalRefs(form === 'canonical' ? tool.canonicalParameters ?? tool.parameters : tool.parameters));
}

function memberKey(tool: ExposedTool): string {
  const op = (schemaExample(tool.parameters) as { fragment?: { feature?: { atomic_id?: unknown } } } | undefined)?.fragment?.feature?.atomic_id;
  return typeof op === 'string' ? `${tool.name}__${op}` : tool.name;
}

/**
 * Groups the offered tools into schema families and builds one probe per family (issue 27.5):
 * the examples of every member — the required-only instance plus one per union branch with all
 * optional fields (schemaExamples) — travel in one request instead of one request per schema.
 * Examples the canonical validator refuses (cross-field rules the generator does not know) are
 * left out; a member left with none is reported by `invalidMembers`.
 */
export function schemaFamilies(tools: ExposedTool[]): { families: SchemaFamily[]; invalidMembers: string[] } {
  const grouped = new Map<string, FamilyMember[]>();
  const invalidMembers: string[] = [];
  for (const tool of tools) {
    const key = memberKey(tool);
    const examples = schemaExamples(probeSchemaOf(tool)).filter((example) => tool.validate(example).ok);
    if (examples.length === 0) {
      invalidMembers.push(key);
      continue;
    }
    const family = FAMILY_OF[tool.name] ?? 'actions';
    grouped.set(family, [...(grouped.get(family) ?? []), { key, tool, examples }]);
  }
  const arrayOf = (m: FamilyMember, items: JsonSchema): JsonSchema => ({ type: 'array', items, minItems: m.examples.length, maxItems: m.examples.length });
  const probeParameters = (members: FamilyMember[], items: (m: FamilyMember) => JsonSchema): JsonSchema => ({
    type: 'object',
    properties: Object.fromEntries(members.map((m) => [m.key, arrayOf(m, items(m))])),
    required: members.map((m) => m.key),
    additionalProperties: false,
  });
  const families = [...grouped].map(([name, members]): SchemaFamily => {
    const compact = members.every((m) => m.tool.canonicalParameters !== undefined);
    return {
      name,
      members,
      expected: Object.fromEntries(members.map((m) => [m.key, m.examples])),
      probe: {
        name: `conformance_${name}`,
        description: `Conformance probe (${name} schemas): send back the given example set exactly.`,
        parameters: probeParameters(members, (m) => probeSchemaOf(m.tool, compact ? 'offered' : 'canonical')),
        ...(compact ? { canonicalParameters: probeParameters(members, (m) => probeSchemaOf(m.tool)) } : {}),
      },
    };
  });
  return { families, invalidMembers };
}

/**
 * Judges a family probe's answer with each member's canonical validator: every example must come
 * back valid and identical. Returns null when it did, else why not (bounded).
 */
export function familyMismatch(family: SchemaFamily, rawArguments: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawArguments) as unknown;
  } catch {
    return `arguments are not valid JSON: ${JSON.stringify(rawArguments.slice(0, 80))}`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'arguments are not an object';
  for (const member of family.members) {
    const sent = (parsed as Record<string, unknown>)[member.key];
    if (!Array.isArray(sent) || sent.length !== member.examples.length) return `${member.key}: expected ${member.examples.length} example(s)`;
    for (const [i, example] of member.examples.entries()) {
      const validation = member.tool.validate(sent[i]);
      if (!validation.ok) return `${member.key}[${i}]: ${validation.issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`.slice(0, 200);
      if (canonicalJson(validation.value) !== canonicalJson(example)) return `${member.key}[${i}]: valid but different arguments`;
    }
  }
  return null;
}
