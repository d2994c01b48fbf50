import { z } from 'zod';
import type { JsonSchema } from '../../contracts/schemaParts';
import type { FieldIssue } from '../errors';
import { idEnum, shortText, toJsonSchema, zodTool } from './toolKit';
import type { ExposedTool, SchemaCheck } from './toolKit';

export const MAX_ITEMS_PER_BATCH = 8;
export const MAX_CLAIMS_PER_ITEM = 8;

/** A claim kind offered to authors: a one-line summary and its verifier's closed expected-value schema. */
export interface ClaimKindSchema {
  kind: string;
  summary: string;
  expected_schema: JsonSchema;
}

export interface RequirementFacts {
  sourceIds: readonly string[];
  claimKinds: readonly ClaimKindSchema[];
  check: SchemaCheck;
}

function requirementItem(facts: RequirementFacts) {
  return z
    .object({
      source_ids: z.array(idEnum(facts.sourceIds)).min(1).max(8),
      statement: shortText(400),
      assumptions: z.array(shortText(240)).max(6),
      acceptance_claims: z
        .array(z.object({ claim_kind: idEnum(facts.claimKinds.map((k) => k.kind)), expected: z.unknown() }).strict())
        .min(1)
        .max(MAX_CLAIMS_PER_ITEM),
    })
    .strict();
}
export type RequirementItem = z.infer<ReturnType<typeof requirementItem>>;

/** The closed `oneOf` of claims generated from the verifier registry (seed §4.1). */
function claimOneOf(kinds: readonly ClaimKindSchema[]): JsonSchema {
  return {
    oneOf: kinds.map((k) => ({
      type: 'object',
      properties: { claim_kind: { const: k.kind }, expected: k.expected_schema },
      required: ['claim_kind', 'expected'],
      additionalProperties: false,
    })),
  };
}

/** Replaces every `acceptance_claims.items` in a generated schema by `items`. */
function withClaimItems(schema: JsonSchema, items: JsonSchema): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'acceptance_claims' && value && typeof value === 'object') out[key] = { ...(value as JsonSchema), items };
      else out[key] = visit(value);
    }
    return out;
  };
  return visit(schema) as JsonSchema;
}

/**
 * What authors are offered for one claim: the kind as an enum and `expected` as an object whose
 * closed schema they read on demand (get_claim_schema), the way operation contracts are read.
 * The ≈ 16 KB oneOf of every kind's schema is never sent; it stays the canonical validator.
 */
function compactClaim(kinds: readonly ClaimKindSchema[]): JsonSchema {
  return {
    type: 'object',
    properties: { claim_kind: { type: 'string', enum: kinds.map((k) => k.kind) }, expected: { type: 'object', description: "closed schema per kind: get_claim_schema" } },
    required: ['claim_kind', 'expected'],
    additionalProperties: false,
  };
}

/** One line per claim kind, for the drafting tool's description. */
export const claimKindLines = (kinds: readonly ClaimKindSchema[]): string => kinds.map((k) => `${k.kind}: ${k.summary}`).join('\n');

/**
 * A drafting tool whose offered parameters carry the compact claim and whose validation runs
 * the full closed claim oneOf first (canonical), then the zod parse and the per-claim checks
 * that name the failing field precisely.
 */
function claimTool<T>(name: 'submit_requirements_draft_batch' | 'patch_requirements_draft', description: string, schema: z.ZodType<T>, facts: RequirementFacts, extraChecks: (value: T) => FieldIssue[]): ExposedTool<T> {
  const offered = zodTool(name, 'author', description, schema, { patchSchema: (s) => withClaimItems(s, compactClaim(facts.claimKinds)), extraChecks });
  const canonical = withClaimItems(toJsonSchema(schema), claimOneOf(facts.claimKinds));
  return {
    ...offered,
    canonicalParameters: canonical,
    validate(value) {
      const typed = offered.validate(value);
      if (!typed.ok) return typed;
      const closed = facts.check(canonical, value, '');
      return closed.length > 0 ? { ok: false, issues: closed.slice(0, 50) } : typed;
    },
  };
}

function claimIssues(items: readonly RequirementItem[], facts: RequirementFacts, base: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  items.forEach((item, i) => {
    const seen = new Set<string>();
    item.acceptance_claims.forEach((claim, c) => {
      const schema = facts.claimKinds.find((k) => k.kind === claim.claim_kind)?.expected_schema;
      if (schema) issues.push(...facts.check(schema, claim.expected, `${base}/${i}/acceptance_claims/${c}/expected`));
      const key = `${claim.claim_kind}:${JSON.stringify(claim.expected)}`;
      if (seen.has(key)) issues.push({ path: `${base}/${i}/acceptance_claims/${c}`, message: 'duplicate claim in one requirement' });
      seen.add(key);
    });
    if (new Set(item.source_ids).size !== item.source_ids.length) issues.push({ path: `${base}/${i}/source_ids`, message: 'duplicate source id' });
  });
  return issues;
}

export function draftBatchTool(facts: RequirementFacts): ExposedTool<{ items: RequirementItem[] }> {
  const schema = z.object({ items: z.array(requirementItem(facts)).min(1).max(MAX_ITEMS_PER_BATCH) }).strict();
  return claimTool('submit_requirements_draft_batch', 'Add up to 8 requirements citing source ids, each with machine-checkable acceptance claims; a claim\'s `expected` follows its kind\'s schema (get_claim_schema).', schema, facts, (v) => claimIssues(v.items, facts, '/items'));
}

export type RequirementPatch = { op: 'replace'; target_draft_id: string; item: RequirementItem } | { op: 'remove'; target_draft_id: string; reason: string };

export function patchDraftTool(facts: RequirementFacts & { draftIds: readonly string[] }): ExposedTool<{ patches: RequirementPatch[] }> {
  const target = idEnum(facts.draftIds);
  const patch = z.discriminatedUnion('op', [
    z.object({ op: z.literal('replace'), target_draft_id: target, item: requirementItem(facts) }).strict(),
    z.object({ op: z.literal('remove'), target_draft_id: target, reason: shortText(240) }).strict(),
  ]);
  const schema = z.object({ patches: z.array(patch).min(1).max(MAX_ITEMS_PER_BATCH) }).strict();
  return claimTool('patch_requirements_draft', 'Replace (with a complete requirement) or remove draft items by id.', schema, facts, (v) => {
    const issues: FieldIssue[] = [];
    const targets = v.patches.map((p) => p.target_draft_id);
    if (new Set(targets).size !== targets.length) issues.push({ path: '/patches', message: 'a draft item may be patched once per batch' });
    v.patches.forEach((p, i) => {
      if (p.op === 'replace') issues.push(...claimIssues([p.item], facts, `/patches/${i}/item`).map((x) => ({ ...x, path: x.path.replace(`/patches/${i}/item/0`, `/patches/${i}/item`) })));
    });
    return issues;
  });
}

export const emptyArgs = z.object({}).strict();

/**
 * get_claim_schema (read-only): the closed `expected` schemas of the named claim kinds. With
 * `describeKinds` its description carries one line per kind — the vocabulary the author chooses
 * from, sent until the first schemas are read (then the facts hold them and the enum names the rest).
 */
export function claimSchemaTool(facts: { claimKinds: readonly ClaimKindSchema[]; describeKinds: boolean }) {
  const kinds = z.array(idEnum(facts.claimKinds.map((k) => k.kind))).min(1).max(MAX_CLAIMS_PER_ITEM);
  const description = 'Read the closed `expected` schema of claim kinds before using them.';
  return zodTool('get_claim_schema', 'author', facts.describeKinds ? `${description} Claim kinds:\n${claimKindLines(facts.claimKinds)}` : description, z.object({ claim_kinds: kinds }).strict(), {
    extraChecks: (v) => (new Set(v.claim_kinds).size !== v.claim_kinds.length ? [{ path: '/claim_kinds', message: 'duplicate claim kind' }] : []),
  });
}

export function finalizeDraftTool(): ExposedTool<Record<string, never>> {
  return zodTool('finalize_requirements_draft', 'author', 'Ask for the independent requirements review. Refused while a source has no requirement.', emptyArgs as z.ZodType<Record<string, never>>);
}

export const REVIEW_ISSUE_CODES = ['missing_requirement', 'conflict', 'unverifiable', 'ambiguous', 'wrong_value', 'other'] as const;
export const USER_QUESTION_REASONS = ['missing_dimension', 'missing_datum', 'conflicting_sources', 'ambiguous_intent'] as const;

export const userQuestion = z.object({ reason_code: z.enum(USER_QUESTION_REASONS), text: shortText(300) }).strict();

export function reviewRequirementsTool(facts: { sourceIds: readonly string[]; draftIds: readonly string[] }) {
  const draft = idEnum(facts.draftIds);
  const schema = z
    .object({
      verdict: z.enum(['approve', 'revise', 'waiting_for_user']),
      coverage: z.array(z.object({ source_id: idEnum(facts.sourceIds), draft_ids: z.array(draft).min(1).max(16) }).strict()).min(1).max(64),
      items: z.array(z.object({ draft_id: draft, verdict: z.enum(['pass', 'revise', 'waiting_for_user']), note: z.string().max(300) }).strict()).min(1).max(64),
      issues: z.array(z.object({ code: z.enum(REVIEW_ISSUE_CODES), message: shortText(300), draft_id: draft.optional() }).strict()).max(20),
      question: userQuestion.optional(),
    })
    .strict();
  return zodTool('review_requirements', 'reviewer', 'Independent review: exactly one coverage row per source id, one verdict per draft item.', schema, {
    extraChecks: (v) => {
      const issues: FieldIssue[] = [];
      const covered = v.coverage.map((c) => c.source_id);
      if (new Set(covered).size !== covered.length || covered.length !== facts.sourceIds.length) issues.push({ path: '/coverage', message: `exactly one row per source id is required: ${facts.sourceIds.join(', ')}` });
      const judged = v.items.map((i) => i.draft_id);
      if (new Set(judged).size !== judged.length || judged.length !== facts.draftIds.length) issues.push({ path: '/items', message: `exactly one verdict per draft item is required: ${facts.draftIds.join(', ')}` });
      if (v.verdict === 'waiting_for_user' && !v.question) issues.push({ path: '/question', message: 'waiting_for_user needs a question with a reason code' });
      if (v.verdict === 'approve' && v.items.some((i) => i.verdict !== 'pass')) issues.push({ path: '/verdict', message: 'approve needs every item to pass' });
      return issues;
    },
  });
}
export interface ReviewRequirementsValue {
  verdict: 'approve' | 'revise' | 'waiting_for_user';
  coverage: { source_id: string; draft_ids: string[] }[];
  items: { draft_id: string; verdict: 'pass' | 'revise' | 'waiting_for_user'; note: string }[];
  issues: { code: (typeof REVIEW_ISSUE_CODES)[number]; message: string; draft_id?: string }[];
  question?: { reason_code: (typeof USER_QUESTION_REASONS)[number]; text: string };
}
