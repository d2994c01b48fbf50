import type { EvalFixture } from '../../host/composition/cadgenEval';
import type { CapturedRequest, ScriptStep } from '../scriptedProvider/types';

/** A versioned generation fixture (resources/evals/cadgen/v1/*.json) with the scripted author's moves. */
export interface GenFixture extends EvalFixture {
  actions: { atomic_id: string; intent: string; expected_change: string; selectors?: Record<string, SelectorSpec>; fragment: Record<string, unknown> }[];
}

export type SelectorSpec =
  | { kind: 'face'; surface: string; normal: number[]; extreme: { axis: number; max: boolean }; minArea?: number }
  | { kind: 'edge'; line: boolean; allZ: number };

/** Faults a scenario injects into the scripted conversation (offline failure scripts). */
export interface PlayerFaults {
  /** First propose_next_action arrives with an unknown field (format rejection before any candidate). */
  malformedProposalOnce?: boolean;
  /** First proposal names an old working head (STALE_WORKING_HEAD). */
  staleHeadOnce?: boolean;
  /** First fragment of a selector action uses a token of the right shape that is not in the snapshot. */
  unknownSelectorOnce?: boolean;
  /** The reviewer accepts every candidate even when claims fail (the server must override). */
  reviewerAlwaysAccepts?: boolean;
  /** The reviewer rejects every candidate (a dead loop the server must stop early). */
  reviewerAlwaysRejects?: boolean;
  /** The reviewer rates every claim `pass`, whatever the server measured (its reviews must be refused). */
  reviewerClaimsAllPass?: boolean;
  /** Reviewer answers HTTP 503 on every call (review service failure → WAITING_RETRY). */
  reviewerDown?: boolean;
  /** Author answers HTTP 503 on every call (transport exhaustion → WAITING_RETRY). */
  authorDown?: boolean;
  /** The first candidate's fragment is replaced by this one (e.g. a build failure or a claim failure). */
  firstFragmentOverride?: Record<string, unknown>;
  /** The first fragment of this operation gets these params merged in (e.g. a chamfer the kernel refuses). */
  paramsOverrideOnce?: { atomic_id: string; params: Record<string, unknown> };
  /** The reviewer asks for a repair on its first final review (claims all pass). */
  finalRepairOnce?: boolean;
  /** After a final review, the author calls complete_task once more for the same revision. */
  completeAgainOnce?: boolean;
  /** Answers conformance probes in text instead of a tool call. */
  nonConformant?: boolean;
  /** The first drafting turn submits drafts straight away, though only get_claim_schema is offered there. */
  unofferedToolOnce?: boolean;
  /**
   * The reviewer's first requirements review asks the user this (WAITING_FOR_USER) about draft
   * `draftIndex`; after the answer the author makes that draft cite the answer's source.
   */
  askUserOnce?: { reason_code: 'missing_dimension' | 'missing_datum' | 'conflicting_sources' | 'ambiguous_intent'; text: string; draftIndex: number };
}

type DraftFacts = { draft_id: string; source_ids: string[]; statement: string; assumptions: string[]; acceptance_claims: unknown[] };

type Facts = Record<string, unknown> & { state: string; working_head: string };

type ToolBody = { function: { name: string; parameters?: { properties?: Record<string, { enum?: string[] }> } } };

function userText(request: CapturedRequest): string {
  const body = request.body as { messages: { role: string; content: unknown }[] };
  const user = body.messages.filter((m) => m.role === 'user').pop()?.content;
  return Array.isArray(user) ? String((user.find((p: { type: string }) => p.type === 'text') as { text: string }).text) : String(user);
}

function factsOf(request: CapturedRequest): { facts: Facts; tools: string[]; system: string; enumOf: (tool: string, field: string) => string[] } {
  const body = request.body as { messages: { role: string; content: unknown }[]; tools?: ToolBody[] };
  const system = String(body.messages.find((m) => m.role === 'system')?.content ?? '');
  const enumOf = (tool: string, field: string): string[] => body.tools?.find((t) => t.function.name === tool)?.function.parameters?.properties?.[field]?.enum ?? [];
  return { facts: JSON.parse(userText(request)) as Facts, tools: (body.tools ?? []).map((t) => t.function.name), system, enumOf };
}

/** The facts JSON the engine sent in a Chat Completions request (state, heads, drafts...), or null for any other body. */
export function requestFacts(request: CapturedRequest): Record<string, unknown> | null {
  try {
    return JSON.parse(userText(request)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const call = (name: string, args: Record<string, unknown>): ScriptStep => ({ toolCall: { name, arguments: args } });

function pick(spec: SelectorSpec, entries: Record<string, unknown>[]): string | string[] {
  if (spec.kind === 'face') {
    const faces = entries.filter((e) => e.kind === spec.surface && Array.isArray(e.normal) && (e.normal as number[]).every((v, i) => Math.abs(v - (spec.normal[i] ?? 0)) < 1e-6) && (spec.minArea === undefined || (e.area_mm2 as number) >= spec.minArea));
    faces.sort((a, b) => ((a.centroid as number[])[spec.extreme.axis] ?? 0) - ((b.centroid as number[])[spec.extreme.axis] ?? 0));
    const chosen = spec.extreme.max ? faces[faces.length - 1] : faces[0];
    return String(chosen?.token ?? 'fc_00000000000000000000');
  }
  return entries.filter((e) => e.kind === 'line' && Math.abs((e.start as number[])[2]! - spec.allZ) < 1e-6 && Math.abs((e.end as number[])[2]! - spec.allZ) < 1e-6).map((e) => String(e.token));
}

/**
 * A scripted author + reviewer that plays one fixture through the protocol over real HTTP:
 * it reads only what the server sent (facts JSON and offered tools) and answers with one tool
 * call, like a model would. Test support only.
 */
export function createFixturePlayer(fixture: GenFixture, faults: PlayerFaults = {}) {
  const once = new Set<string>();
  const first = (key: string): boolean => (once.has(key) ? false : (once.add(key), true));
  return (request: CapturedRequest): ScriptStep => {
    const { facts, tools, system, enumOf } = factsOf(request);
    // Conformance probes show the exact arguments to send back through the tool.
    if (facts.conformance === true) {
      if (faults.nonConformant) return { text: 'I prefer to answer in prose.' };
      // JSON mode: the same arguments in the {tool, arguments} envelope, as the reply text.
      const jsonMode = (request.body as { response_format?: unknown }).response_format !== undefined;
      return jsonMode ? { text: JSON.stringify({ tool: facts.call, arguments: facts.arguments }) } : call(String(facts.call), facts.arguments as Record<string, unknown>);
    }
    const reviewer = system.includes('independent reviewer');
    if (reviewer && faults.reviewerDown) return { error: { status: 503 } };
    if (!reviewer && faults.authorDown) return { error: { status: 503 } };
    const claims = (facts.claims as { claim_id: string; status: string }[] | undefined) ?? [];
    const coverageRows = claims.map((c) => ({ claim_id: c.claim_id, status: faults.reviewerClaimsAllPass || c.status === 'pass' ? 'pass' : c.status === 'fail' ? 'fail' : 'pending' }));
    const anyFail = claims.some((c) => c.status === 'fail');
    switch (facts.state) {
      case 'DRAFTING_REQUIREMENTS': {
        const sources = (facts.sources as { source_id: string }[]).map((s) => s.source_id);
        const drafts = facts.drafts as DraftFacts[];
        if (drafts.length === 0) {
          // Like a model that knows only the kinds' one-liners: read the expected schemas it is about to use, once.
          const kinds = [...new Set(fixture.requirements.flatMap((r) => r.claims.map((c) => c.claim_kind)))];
          const read = Object.keys((facts.claim_schemas as Record<string, unknown> | undefined) ?? {});
          const unread = kinds.filter((k) => !read.includes(k)).slice(0, 8);
          const submit = () => call('submit_requirements_draft_batch', { items: fixture.requirements.map((r) => ({ source_ids: sources, statement: r.statement, assumptions: [], acceptance_claims: r.claims })) });
          if (faults.unofferedToolOnce && first('unoffered')) return submit();
          if (unread.length > 0 && tools.includes('get_claim_schema')) return call('get_claim_schema', { claim_kinds: unread });
          return submit();
        }
        // A source no draft cites (the user's answer) is attached to the draft it answers before finalizing.
        const uncovered = sources.filter((id) => !drafts.some((d) => d.source_ids.includes(id)));
        const target = drafts[faults.askUserOnce?.draftIndex ?? 0];
        if (uncovered.length > 0 && target) {
          const { draft_id, source_ids, statement, assumptions, acceptance_claims } = target;
          return call('patch_requirements_draft', { patches: [{ op: 'replace', target_draft_id: draft_id, item: { source_ids: [...source_ids, ...uncovered], statement, assumptions, acceptance_claims } }] });
        }
        return call('finalize_requirements_draft', {});
      }
      case 'REVIEWING_REQUIREMENTS': {
        const drafts = (facts.drafts as { draft_id: string }[]).map((d) => d.draft_id);
        const sources = (facts.sources as { source_id: string }[]).map((s) => s.source_id);
        const ask = faults.askUserOnce;
        if (ask && first('ask')) {
          const asked = drafts[ask.draftIndex];
          return call('review_requirements', {
            verdict: 'waiting_for_user', coverage: sources.map((s) => ({ source_id: s, draft_ids: drafts })), items: drafts.map((d) => ({ draft_id: d, verdict: d === asked ? 'waiting_for_user' : 'pass', note: '' })),
            issues: [{ code: 'unverifiable', message: ask.text, ...(asked ? { draft_id: asked } : {}) }], question: { reason_code: ask.reason_code, text: ask.text },
          });
        }
        return call('review_requirements', { verdict: 'approve', coverage: sources.map((s) => ({ source_id: s, draft_ids: drafts })), items: drafts.map((d) => ({ draft_id: d, verdict: 'pass', note: '' })), issues: [] });
      }
      case 'AWAITING_ACTION': {
        const done = Number(String(facts.head_revision ?? 'rev_000').slice(4));
        const action = fixture.actions[done];
        if (!action && tools.includes('complete_task')) return call('complete_task', {});
        if (!action && faults.completeAgainOnce && first('complete-again')) return call('complete_task', {});
        // A final repair request on the last revision: redo the last action from its parent checkpoint.
        const parent = enumOf('rollback_checkpoint', 'checkpoint_token').sort().pop();
        if (!action && parent) return call('rollback_checkpoint', { working_head: facts.working_head, checkpoint_token: parent, reason: 'final review asked for a repair: redo the last action' });
        if (!action) return { text: 'nothing left to do' };
        const requirementIds = (facts.requirements as { requirement_id: string }[]).map((r) => r.requirement_id).slice(0, 5);
        const proposal = { working_head: facts.working_head, intent: action.intent, requirement_ids: requirementIds, atomic_id: action.atomic_id, expected_change: action.expected_change };
        if (faults.malformedProposalOnce && first('malformed')) return call('propose_next_action', { ...proposal, params: { depth_mm: 5 } });
        if (faults.staleHeadOnce && first('stale')) return call('propose_next_action', { ...proposal, working_head: 'head_0000_empty_old' });
        return call('propose_next_action', proposal);
      }
      case 'ACTION_PENDING': {
        const done = Number(String(facts.head_revision ?? 'rev_000').slice(4));
        const action = fixture.actions[done];
        if (!action) return { text: 'no action' };
        const topology = facts.topology as { kind: string; snapshot_id: string; entries: Record<string, unknown>[] } | undefined;
        const selectors = Object.entries(action.selectors ?? {});
        const wantedKind = selectors[0]?.[1].kind;
        if (selectors.length > 0 && (!topology || topology.kind !== wantedKind)) return call('inspect_topology', { working_head: facts.working_head, kind: wantedKind, limit: 200 });
        const contract = facts.contract as { atomic_id: string; contract_hash: string } | undefined;
        if (!contract || contract.atomic_id !== action.atomic_id || !tools.includes('submit_cdsl_fragment')) return call('get_cdsl_operation_contract', { atomic_id: action.atomic_id });
        let fragment = JSON.parse(JSON.stringify(action.fragment)) as { feature: { params: Record<string, unknown> } };
        if (faults.firstFragmentOverride && first('override')) fragment = JSON.parse(JSON.stringify(faults.firstFragmentOverride));
        if (faults.paramsOverrideOnce?.atomic_id === action.atomic_id && first('params')) fragment.feature.params = { ...fragment.feature.params, ...faults.paramsOverrideOnce.params };
        for (const [slot, spec] of selectors) fragment.feature.params[slot] = pick(spec, topology?.entries ?? []);
        if (faults.unknownSelectorOnce && selectors.length > 0 && first('selector')) {
          const [slot] = selectors[0] as [string, SelectorSpec];
          const real = fragment.feature.params[slot];
          const bogus = (t: string): string => `${t.slice(0, 11)}${'f'.repeat(12)}`;
          fragment.feature.params[slot] = Array.isArray(real) ? real.map((t) => bogus(String(t))) : bogus(String(real));
        }
        return call('submit_cdsl_fragment', { working_head: facts.working_head, contract_hash: contract.contract_hash, snapshot_id: topology?.snapshot_id ?? null, fragment });
      }
      case 'CANDIDATE_REVIEW': {
        const verdict = faults.reviewerAlwaysRejects || (anyFail && !faults.reviewerAlwaysAccepts) ? 'reject' : 'accept';
        return call('review_candidate', { candidate_id: facts.candidate_id, working_head: facts.working_head, verdict, claim_coverage: coverageRows, evidence: ['drawings and claim results checked'], issues: verdict === 'reject' ? [faults.reviewerAlwaysRejects ? { code: 'other', message: 'I do not like it' } : { code: 'claim_failed', message: 'a claim fails' }] : [] });
      }
      case 'FINAL_VALIDATION': {
        const repair = (anyFail && !faults.reviewerAlwaysAccepts) || (faults.finalRepairOnce === true && first('final-repair'));
        const visual = (facts.claims as { claim_id: string; kind: string }[] | undefined ?? []).filter((c) => c.kind === 'visual');
        const verdicts = visual.length > 0 ? { visual_verdicts: visual.map((c) => ({ claim_id: c.claim_id, verdict: 'pass', evidence: 'the iso and top renders show the described form' })) } : {};
        return call('review_final', { revision_id: facts.revision_id, verdict: repair ? 'repair' : 'accept', claim_coverage: coverageRows, evidence: ['final rebuild checked'], issues: repair && !anyFail ? [{ code: 'visual_defect', message: 'redo the last feature with a clean rebuild' }] : [], ...verdicts });
      }
      default:
        return { text: `unexpected state ${facts.state}` };
    }
  };
}
