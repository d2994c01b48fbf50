import type { AppErrorData } from '../../../../shared/errors';

/** A typed error as one line: its code and message (never a stack). */
export function ErrorLine({ error, testId, prefix }: { error: AppErrorData; testId?: string; prefix?: string }) {
  return (
    <p className="form-error" data-testid={testId} data-code={error.code}>
      {prefix && `${prefix}: `}
      <span className="banner-code">{error.code}</span> {error.message}
    </p>
  );
}
