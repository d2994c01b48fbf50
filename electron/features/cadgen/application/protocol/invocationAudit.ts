import type { AppError } from '../../../../../shared/errors';
import { argumentRecord, boundUtf8, redactPaths } from '../../domain/protocol/argumentRecord';
import type { GenerationDeps } from './deps';
import type { InvocationRow } from './ports';

const MAX_FIELD_ERRORS = 20;
const MAX_FIELD_MESSAGE_BYTES = 300;

/** The hash and the redacted, bounded copy of what a model sent (its raw arguments, or its text when it made no call). */
export function rawAudit(deps: Pick<GenerationDeps, 'sha256' | 'redactor'>, raw: string): Pick<InvocationRow, 'raw_sha256' | 'raw_redacted'> {
  return { raw_sha256: deps.sha256(raw), raw_redacted: argumentRecord(raw, deps.redactor).text };
}

/** The field-level issues of a refusal (data.issues of format errors), bounded and path-redacted; null when it has none. */
export function fieldErrorsOf(error: AppError, redactor: GenerationDeps['redactor']): InvocationRow['field_errors'] {
  const issues = (error.data as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  return issues.slice(0, MAX_FIELD_ERRORS).map((issue: { path?: unknown; message?: unknown }) => ({
    path: redactPaths(String(issue?.path ?? '')).slice(0, 200),
    message: boundUtf8(redactPaths(redactor.redactText(String(issue?.message ?? ''))), MAX_FIELD_MESSAGE_BYTES).text,
  }));
}
