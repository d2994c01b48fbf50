import { AppError } from '../../../shared/errors';
import type { LlmContentPart, LlmRequest } from './types';

/** Part types each role may carry; the protocol adapters have no place for anything else. */
const allowedParts: Record<'user' | 'assistant', ReadonlySet<LlmContentPart['type']>> = {
  user: new Set(['text', 'image', 'tool_result']),
  assistant: new Set(['text', 'reasoning', 'tool_call']),
};

function invalid(message: string, data: Record<string, unknown>): AppError {
  return new AppError('LLM_BAD_REQUEST', message, { data });
}

/**
 * Checks a request before anything is sent, so a caller bug is reported as LLM_BAD_REQUEST
 * instead of an adapter silently dropping a part the protocol cannot place (an image in an
 * assistant turn, a tool result from the assistant) or a provider rejecting it later.
 */
export function assertValidRequest(request: LlmRequest): void {
  if (request.messages.length === 0) throw invalid('A model call needs at least one message.', {});
  request.messages.forEach((message, index) => {
    if (message.content.length === 0) throw invalid(`Message ${index} has no content.`, { messageIndex: index });
    const misplaced = message.content.find((part) => !allowedParts[message.role].has(part.type));
    if (misplaced) throw invalid(`A ${message.role} message cannot carry a ${misplaced.type} part (message ${index}).`, { messageIndex: index, partType: misplaced.type });
  });
  const choice = request.toolChoice;
  if (choice !== undefined && choice !== 'auto' && !request.tools?.some((t) => t.name === choice.name)) {
    throw invalid(`The forced tool "${choice.name}" is not among the offered tools.`, { tool: choice.name });
  }
  const names = request.tools?.map((t) => t.name) ?? [];
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw invalid(`Tool "${duplicate}" is offered twice.`, { tool: duplicate });
}
