import { AppError } from '../../../../../shared/errors';
import { chargeCall, exceededBudget } from '../../domain/protocol/budgets';
import { ERROR_CATEGORY, protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import type { ProtocolErrorCodeValue } from '../../domain/protocol/errors';
import { settleThrown } from '../../domain/protocol/failureSettlement';
import { applyAuthorOutcome } from '../../domain/protocol/progress';
import type { AuthorOutcome } from '../../domain/protocol/progress';
import { isActive } from '../../domain/protocol/states';
import type { FailureReason } from '../../domain/protocol/states';
import type { TaskRecord } from '../../domain/protocol/task';
import { exposedTools, speakerOf, staleBindings } from '../../domain/protocol/tools/exposure';
import { validateRawArguments } from '../../domain/protocol/tools/toolKit';
import type { ExposedTool, SchemaCheck } from '../../domain/protocol/tools/toolKit';
import type { TopologySnapshot } from '../../domain/topology';
import { authorContext, reviewerContext } from './context';
import type { GenerationDeps } from './deps';
import { HANDLERS } from './handlerTable';
import { fieldErrorsOf, rawAudit } from './invocationAudit';
import type { Handler, HandlerResult } from './handlerTypes';
import { dispatchOutbox } from './outbox';
import type { ModelReply, TaskChange, TaskSnapshot } from './ports';
import { reviewSubject } from './reviewSubject';
import { buildCandidateStep, finalRebuildStep, FINAL_SUFFIX } from './serverSteps';
import { moveTo } from './transitions';
import { turnViewOf } from './turnView';

/** Safety stop for one coordinator run (each step is one model call or one server step). */
const MAX_STEPS = 400;

export interface RunOptions {
  onStep?: (line: string) => void;
  /**
   * Stops the run at the next step boundary (app shutdown). A model call in flight is cancelled
   * and asked again on resume; nothing is committed for it. The task stays in its active state,
   * which start-up recovery reports as interrupted and `resume` continues.
   */
  signal?: AbortSignal;
}

/** Reads the head revision's topology artifact (the token bank every selector resolves against). */
async function headTopology(snapshot: TaskSnapshot, deps: GenerationDeps): Promise<TopologySnapshot | null> {
  const revision = snapshot.revisions.find((r) => r.revision_id === snapshot.task.head_revision);
  if (!revision) return null;
  const text = await deps.artifacts.readText(snapshot.task.task_id, `${revision.dir}/topology.json`);
  return text ? (JSON.parse(text) as TopologySnapshot) : null;
}

function failTask(snapshot: TaskSnapshot, reason: FailureReason, error: AppError): TaskChange {
  return {
    task: { state: moveTo(snapshot.task.state, 'failed'), failure_reason: reason, last_error: error.toData() },
    ledger: [{ event: 'failed', reason, code: error.code, action_id: snapshot.pending?.action_id }],
    outbox: [{ type: 'failed', payload: { reason, code: error.code } }],
  };
}

function waitRetry(snapshot: TaskSnapshot, code: ProtocolErrorCodeValue, cause: AppError): TaskChange {
  const error = protocolError(code, `${cause.message} The task waits for an explicit resume.`, { cause: cause.code });
  return {
    task: { state: moveTo(snapshot.task.state, 'infrastructure_exhausted'), resume_state: snapshot.task.state, last_error: error.toData() },
    ledger: [{ event: 'waiting', reason: code }],
    outbox: [{ type: 'waiting_retry', payload: { code } }],
  };
}

/** Merges usage, counters and wall time into a change (the change's own usage wins as base). */
/**
 * Merges usage, counters and wall time into a change (the change's own usage wins as base). The
 * snapshot's usage is from before the call's `started` charge, so the call's own usage replaces
 * that estimate, and its usage row reconciles the started one (`callId`).
 */
function withAccounting(snapshot: TaskSnapshot, change: TaskChange, extra: { role?: 'author' | 'reviewer'; reply?: ModelReply; callId?: string; tool?: string; counters?: TaskRecord['counters']; wallMs: number }): TaskChange {
  let usage = change.task?.usage ?? snapshot.task.usage;
  if (extra.role && extra.reply) usage = chargeCall(usage, extra.role, {
      contextBytes: extra.reply.usage.contextBytes,
      retries: extra.reply.usage.retries,
      ...(extra.reply.usage.promptTokens !== undefined ? { promptTokens: extra.reply.usage.promptTokens } : {}),
      ...(extra.reply.usage.cachedPromptTokens !== undefined ? { cachedPromptTokens: extra.reply.usage.cachedPromptTokens } : {}),
    });
  usage = { ...usage, wallMs: usage.wallMs + extra.wallMs };
  return {
    ...change,
    task: { ...(change.task ?? {}), usage, ...(extra.counters ? { counters: extra.counters } : {}) },
    usage: [...(change.usage ?? []), ...(extra.role && extra.reply ? [{ role: extra.role, tool: extra.tool ?? '(none)', usage: extra.reply.usage, ...(extra.callId ? { call_id: extra.callId, status: 'completed' as const } : {}) }] : [])],
  };
}

/**
 * Drives one task until it is terminal or waiting: server steps (candidate build, final
 * rebuild) run directly; in author/reviewer states it asks the model for exactly one call of
 * an exposed tool, validates it canonically on the raw string and hands it to that tool's
 * handler. It never reads requirement text or chooses an operation itself.
 */
export async function runTask(deps: GenerationDeps, taskId: string, options: RunOptions = {}): Promise<TaskRecord> {
  try {
    return await drive(deps, taskId, options);
  } catch (error) {
    // Failed outside a step (e.g. the commit of a step's own failure): record it on the task so
    // the UI sees a typed error; when even that is impossible the original error propagates.
    try {
      const fresh = deps.repo.load(taskId);
      if (!isActive(fresh.task.state)) return fresh.task;
      deps.repo.commit(taskId, fresh.task.state_version, settleFailure(fresh, error, deps));
    } catch {
      throw error;
    }
    // The outbox keeps the events if the dispatch fails again; recovery re-dispatches them.
    await dispatchOutbox(deps, taskId).catch(() => undefined);
    return deps.repo.load(taskId).task;
  }
}

/** The change for an exception out of a step: what may heal → WAITING_RETRY, anything else → one FAILED_INTERNAL under a typed code (settleThrown). */
function settleFailure(fresh: TaskSnapshot, error: unknown, deps: GenerationDeps): TaskChange {
  const settlement = settleThrown(error instanceof AppError ? error.code : undefined);
  if (settlement.kind === 'wait_retry') return waitRetry(fresh, settlement.code, error as AppError);
  // Fail once as FAILED_INTERNAL, keep the last checkpoint (seed §6.1); a typed defect keeps its code and says what broke.
  const correlation = deps.newId('corr');
  const cause = error instanceof AppError ? error.code : (error as Error)?.name ?? 'unknown';
  const message = settlement.code === ProtocolErrorCode.failedInternal ? `internal error (correlation ${correlation})` : `${(error as AppError).message} (correlation ${correlation})`;
  const detail = settlement.code === ProtocolErrorCode.failedInternal ? {} : ((error as AppError).data as Record<string, unknown> | undefined) ?? {};
  return failTask(fresh, 'FAILED_INTERNAL', protocolError(settlement.code, message, { ...detail, correlation_id: correlation, cause }));
}

async function drive(deps: GenerationDeps, taskId: string, options: RunOptions): Promise<TaskRecord> {
  const check: SchemaCheck = (schema, value, path) => deps.catalog.validator.issues(schema, value, path);
  let tick = deps.clock.now().getTime();
  const elapsed = (): number => {
    const now = deps.clock.now().getTime();
    const delta = now - tick;
    tick = now;
    return delta;
  };
  const commit = async (snapshot: TaskSnapshot, change: TaskChange): Promise<void> => {
    deps.crashHook?.('sqlite_commit');
    deps.repo.commit(taskId, snapshot.task.state_version, change);
    await dispatchOutbox(deps, taskId);
  };
  await dispatchOutbox(deps, taskId);
  // Calls a crashed or stopped driver left `started` stay charged; this driver marks them cut off.
  deps.repo.settleStartedCalls(taskId);
  // The model call of the current turn (its started usage row), for the turn's accounting.
  let callId: string | undefined;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (options.signal?.aborted) return deps.repo.load(taskId).task;
    const snapshot = deps.repo.load(taskId);
    const { task } = snapshot;
    if (!isActive(task.state)) return task;
    const over = exceededBudget(task.budget, task.usage);
    if (over) {
      // The state it stopped in is kept: a larger budget (resume --budget) continues there.
      const failed = failTask(snapshot, 'BUDGET_EXHAUSTED', protocolError(ProtocolErrorCode.budgetExhausted, `budget exhausted: ${over}`, { limit: over }));
      await commit(snapshot, { ...failed, task: { ...failed.task, resume_state: task.state } });
      continue;
    }
    try {
      if (task.state === 'CANDIDATE_BUILDING') {
        options.onStep?.('building candidate');
        await commit(snapshot, withAccounting(snapshot, await buildCandidateStep(snapshot, deps), { wallMs: elapsed() }));
        continue;
      }
      if (task.state === 'FINAL_VALIDATION' && task.head_revision && !snapshot.claimResults.has(`${task.head_revision}${FINAL_SUFFIX}`)) {
        options.onStep?.('final rebuild');
        await commit(snapshot, withAccounting(snapshot, await finalRebuildStep(snapshot, deps), { wallMs: elapsed() }));
        continue;
      }
      await modelTurn(snapshot);
    } catch (error) {
      const fresh = deps.repo.load(taskId);
      if (!isActive(fresh.task.state)) continue;
      if (error instanceof AppError && error.code === ProtocolErrorCode.staleWorkingHead) continue;
      await commit(fresh, settleFailure(fresh, error, deps));
    }
  }
  return deps.repo.load(taskId).task;

  async function modelTurn(snapshot: TaskSnapshot): Promise<void> {
    const { task } = snapshot;
    const role = speakerOf(task.state);
    if (!role) throw protocolError(ProtocolErrorCode.illegalTransition, `no speaker in ${task.state}`);
    const topology = await headTopology(snapshot, deps);
    const view = turnViewOf(snapshot, deps.catalog, topology);
    const tools = exposedTools(view, check);
    if (tools.length === 0) throw protocolError(ProtocolErrorCode.illegalTransition, `no tool exposed in ${task.state}`);
    const ledger = deps.repo.ledger(task.task_id);
    let context: { system: string; user: string };
    let images: { mimeType: string; data: Uint8Array }[] = [];
    if (role === 'author') context = authorContext(snapshot, ledger, topology?.measurements ? { solid_count: topology.measurements.solid_count, volume_mm3: Math.round(topology.measurements.volume_mm3), bbox: topology.measurements.bbox } : null);
    else {
      const subject = await reviewSubject(snapshot, deps);
      context = reviewerContext(snapshot, subject.subject, subject.claims);
      images = subject.images;
    }
    const model = role === 'author' ? deps.author : deps.reviewer;
    const offeredDefinitions = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    const toolDefinitions = tools.map((t, i) => ({ ...offeredDefinitions[i]!, ...(t.canonicalParameters ? { canonicalParameters: t.canonicalParameters } : {}) }));
    const purpose = `cadgen.${role}.${task.state.toLowerCase()}`;
    // Charged as it starts (issue 24): a call a crash cuts off still counts on resume.
    const requestBytes = Buffer.byteLength(JSON.stringify({ system: context.system, user: context.user, tools: offeredDefinitions }), 'utf8');
    const attemptUsage = (retries: number) => ({ providerId: model.id, model: model.id, contextBytes: requestBytes, latencyMs: 0, retries });
    callId = deps.newId('call');
    deps.repo.chargeCallStarted(task.task_id, task.state_version, { role, tool: purpose, call_id: callId, usage: attemptUsage(0) }, chargeCall(task.usage, role, { contextBytes: requestBytes }));
    let reply: ModelReply;
    try {
      const pending = model.turn({ system: context.system, user: context.user, tools: toolDefinitions, ...(images.length ? { images } : {}), purpose, ...(options.signal ? { signal: options.signal } : {}) });
      deps.crashHook?.('model_call', callId);
      reply = await pending;
    } catch (error) {
      if (options.signal?.aborted) return;
      if (!(error instanceof AppError) || !error.code.startsWith('LLM_')) throw error;
      // Failed attempts were sent and may have been billed: each is charged as a call of the request's size.
      const attempts = Math.max(1, Number((error.data as { attempts?: unknown } | undefined)?.attempts) || 1);
      const usage = chargeCall(snapshot.task.usage, role, { contextBytes: requestBytes, retries: attempts - 1 });
      const waiting = waitRetry(snapshot, role === 'author' ? ProtocolErrorCode.authorTransportUnavailable : ProtocolErrorCode.reviewServiceUnavailable, error);
      const row = { role, tool: purpose, call_id: callId, status: 'failed' as const, usage: attemptUsage(attempts - 1) };
      await commit(snapshot, withAccounting(snapshot, { ...waiting, task: { ...waiting.task, usage }, usage: [row] }, { wallMs: elapsed() }));
      return;
    }
    const tool = reply.kind === 'call' ? tools.find((t) => t.name === reply.name) : undefined;
    options.onStep?.(`${role}: ${reply.kind === 'call' ? reply.name : '(no tool call)'}`);
    if (reply.kind !== 'call' || !tool) {
      const issue = reply.kind === 'call' ? `tool ${reply.name} is not offered in ${task.state}` : `exactly one tool call is required (${reply.text.slice(0, 120)})`;
      await reject(snapshot, role, reply, reply.kind === 'call' ? reply.name : '(none)', protocolError(ProtocolErrorCode.authorFormatInvalid, issue, { issues: [{ path: '', message: issue }] }));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(reply.rawArguments);
    } catch {
      parsed = undefined;
    }
    const stale = staleBindings(parsed, tool);
    if (stale.length > 0) {
      await reject(snapshot, role, reply, tool.name, protocolError(ProtocolErrorCode.staleWorkingHead, `stale ${stale.join(', ')}: read the current facts`, { fields: stale, working_head: task.working_head }));
      return;
    }
    const validation = validateRawArguments(tool as ExposedTool, reply.rawArguments);
    if (!validation.ok) {
      await reject(snapshot, role, reply, tool.name, protocolError(ProtocolErrorCode.authorFormatInvalid, `${tool.name} arguments are invalid`, { issues: validation.issues }));
      return;
    }
    const invocationId = deps.newId('inv');
    const idempotencyKey = tool.name === 'complete_task' ? `complete:${task.head_revision}` : `${tool.name}:v${task.state_version}`;
    if (deps.repo.invocationByKey(task.task_id, idempotencyKey)) {
      await reject(snapshot, role, reply, tool.name, protocolError(ProtocolErrorCode.authorDecisionRejected, `${tool.name} was already executed for this checkpoint`, { idempotency_key: idempotencyKey }));
      return;
    }
    const handler = HANDLERS[tool.name] as Handler<unknown>;
    const result: HandlerResult = await handler({ snapshot, value: validation.value, deps, topology });
    const invocation = { invocation_id: invocationId, tool: tool.name, role, idempotency_key: idempotencyKey, ...rawAudit(deps, reply.rawArguments), field_errors: result.kind === 'rejected' ? fieldErrorsOf(result.error, deps.redactor) : null, status: result.kind === 'rejected' ? ('rejected' as const) : result.kind === 'waiting' ? ('waiting' as const) : ('accepted' as const), result_json: JSON.stringify(result.kind === 'rejected' ? result.error.toData() : { message: result.message }), state_version: task.state_version };
    if (result.kind === 'rejected') {
      await reject(snapshot, role, reply, tool.name, result.error, invocation);
      return;
    }
    const outcome: AuthorOutcome = result.kind === 'accepted' && !result.advanced ? { kind: 'no_change', tool: tool.name } : { kind: 'advanced', tool: tool.name };
    const progress = applyAuthorOutcome(task.counters, outcome, task.budget);
    let change = withAccounting(snapshot, { ...result.change, invocation }, { role, reply, ...(callId ? { callId } : {}), tool: tool.name, counters: progress.counters, wallMs: elapsed() });
    if (progress.failure && result.kind === 'accepted' && !result.advanced) {
      const failed = failTask(snapshot, progress.failure, protocolError(ProtocolErrorCode.noProgressLimit, `${task.budget.maxNoProgress} author choices in a row changed nothing`));
      change = { ...change, ...failed, task: { ...change.task, ...failed.task } };
    }
    await commit(snapshot, change);
  }

  async function reject(snapshot: TaskSnapshot, role: 'author' | 'reviewer', reply: ModelReply, toolName: string, error: AppError, invocation?: TaskChange['invocation']): Promise<void> {
    const { task } = snapshot;
    const progress = applyAuthorOutcome(task.counters, { kind: 'rejected', tool: toolName, code: error.code as ProtocolErrorCodeValue }, task.budget);
    // Every model output gets an audit row (raw-arguments hash, redacted copy, field errors, typed result), rejected ones included.
    const audit = invocation ?? { invocation_id: deps.newId('inv'), tool: toolName, role, idempotency_key: null, ...rawAudit(deps, reply.kind === 'call' ? reply.rawArguments : reply.text), field_errors: fieldErrorsOf(error, deps.redactor), status: 'rejected' as const, result_json: JSON.stringify(error.toData()), state_version: task.state_version };
    // Decision, stale-head and runtime rejections are part of the record (seed §4.4); format errors stay out of the ledger.
    const category = ERROR_CATEGORY[error.code as ProtocolErrorCodeValue];
    const ledger = category && category !== 'format' ? [{ event: 'rejected' as const, action_id: snapshot.pending?.action_id, tool: toolName, code: error.code, summary: error.message.slice(0, 300) }] : [];
    let change = withAccounting(snapshot, { task: { last_error: error.toData(), notes: { ...(task.notes.head === task.working_head ? task.notes : { head: task.working_head }), last_tool: { tool: toolName, outcome: 'rejected', message: error.message.slice(0, 300) } } }, invocation: audit, ledger }, { role, reply, ...(callId ? { callId } : {}), tool: toolName, counters: progress.counters, wallMs: elapsed() });
    if (progress.failure) {
      const code = progress.failure === 'FAILED_AUTHOR_FORMAT' ? ProtocolErrorCode.failedAuthorFormat : ProtocolErrorCode.noProgressLimit;
      const failed = failTask(snapshot, progress.failure, protocolError(code, `${progress.failure}: last error ${error.code} on ${toolName}`, { last: error.toData() }));
      change = { ...change, ...failed, task: { ...change.task, ...failed.task }, ledger: [...(change.ledger ?? []), ...(failed.ledger ?? [])] };
    }
    await commit(snapshot, change);
  }
}

