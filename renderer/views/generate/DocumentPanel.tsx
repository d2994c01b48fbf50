import { useRef, useState, type DragEvent } from 'react';
import type { AppErrorData } from '../../../shared/errors';
import { useApp, useT } from '../../store/StoreContext';
import type { OpenCdslDocument } from '../../store/cadgenSlice';

/** A claims file is the JSON object with a top-level `claims` array and no `features`. */
function isClaimsText(text: string): boolean {
  try {
    const value = JSON.parse(text) as Record<string, unknown> | null;
    return typeof value === 'object' && value !== null && Array.isArray(value.claims) && !('features' in value);
  } catch {
    return false;
  }
}

/** Reads picked or dropped files: one document, optionally one claims file. */
async function readDocumentFiles(files: File[]): Promise<OpenCdslDocument | null> {
  let document: { name: string; text: string } | null = null;
  let claims: string | null = null;
  for (const file of files) {
    const text = await file.text();
    if (isClaimsText(text)) claims = text;
    else document = { name: file.name.replace(/\.json$/i, ''), text };
  }
  return document ? { name: document.name, origin: 'file', documentJson: document.text, claimsJson: claims } : null;
}

/** Open a document (bundled example, file picker, drag-and-drop) and show its validation. */
export function DocumentPanel() {
  const t = useT();
  const examples = useApp((s) => s.cadgenExamples);
  const open = useApp((s) => s.cadgenDocument);
  const validation = useApp((s) => s.cadgenValidation);
  const openExample = useApp((s) => s.openCadgenExample);
  const openText = useApp((s) => s.openCadgenText);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const openFiles = async (files: File[]): Promise<void> => {
    const document = await readDocumentFiles(files);
    if (document) await openText(document);
  };
  const onDrop = (event: DragEvent<HTMLElement>): void => {
    event.preventDefault();
    setDragging(false);
    void openFiles([...event.dataTransfer.files]);
  };

  return (
    <section
      className={`card cdsl-document${dragging ? ' dragging' : ''}`}
      data-testid="cdsl-document"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2>{t('cadgen.open.title')}</h2>
      <div className="cdsl-actions">
        <label className="cdsl-inline">
          {t('cadgen.open.example')}
          <select data-testid="cdsl-example" value={open?.origin === 'example' ? open.name : ''} onChange={(e) => void openExample(e.target.value)}>
            <option value="">{t('cadgen.open.examplePlaceholder')}</option>
            {(examples ?? []).map((example) => (
              <option key={example.name} value={example.name}>
                {t('cadgen.open.exampleOption', { name: example.name, count: example.featureCount })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn-ghost" data-testid="cdsl-open-file" onClick={() => fileInput.current?.click()}>
          {t('cadgen.open.file')}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          multiple
          hidden
          data-testid="cdsl-file-input"
          onChange={(e) => {
            void openFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <span className="muted">{t('cadgen.open.drop')}</span>
      </div>
      {open && (
        <p className="cdsl-source">
          <strong>{t('cadgen.open.source', { name: open.name })}</strong>{' '}
          <span className="muted">{validation.status === 'valid' && open.claimsJson ? t('cadgen.open.withClaims', { count: validation.result.claimCount }) : open.claimsJson ? '' : t('cadgen.open.noClaims')}</span>
        </p>
      )}
      {validation.status === 'checking' && <p className="muted">{t('cadgen.validate.checking')}</p>}
      {validation.status === 'valid' && (
        <p className="cdsl-valid" data-testid="cdsl-valid">
          {t('cadgen.validate.valid', { name: validation.result.name, count: validation.result.features.length })}
        </p>
      )}
      {validation.status === 'invalid' && <ValidationIssues error={validation.error} />}
    </section>
  );
}

/** A typed validation error with each issue's JSON path. */
function ValidationIssues({ error }: { error: AppErrorData }) {
  const t = useT();
  const source = error.data?.source === 'claims' ? 'claims' : 'document';
  const issues = Array.isArray(error.data?.issues) ? (error.data.issues as { path?: unknown; message?: unknown }[]) : [];
  return (
    <div className="cdsl-invalid" data-testid="cdsl-validation-error" data-code={error.code} role="alert">
      <p>
        <strong>{t('cadgen.validate.invalid', { source: t(`cadgen.validate.source.${source}`) })}</strong> <span className="banner-code">{error.code}</span>
      </p>
      <p>{error.message}</p>
      {issues.length > 0 && (
        <table className="cdsl-table">
          <thead>
            <tr>
              <th>{t('cadgen.validate.path')}</th>
              <th>{t('cadgen.validate.message')}</th>
            </tr>
          </thead>
          <tbody>
            {issues.map((issue, index) => (
              <tr key={index} data-testid="cdsl-issue">
                <td className="mono">{String(issue.path ?? '/')}</td>
                <td>{String(issue.message ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
