import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { checklistHash, parseChecklist, ruleParamsSchema } from './checklist';

const defaultText = readFileSync(path.resolve(__dirname, '../../../../resources/checklist/review_checklist.json'), 'utf8');

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('parseChecklist', () => {
  it('accepts the shipped default checklist with every required rule and LLM item', () => {
    const checklist = parseChecklist(defaultText, 'default');
    const rules = checklist.items.flatMap((item) => (item.mode === 'rule' ? [item.params.rule] : []));
    // Every rule the checklist contract knows ships in the default checklist, once.
    expect([...rules].sort()).toEqual(ruleParamsSchema.options.map((o) => o.shape.rule.value).sort());
    expect(checklist.items.filter((item) => item.mode === 'llm')).toHaveLength(5);
  });

  it('reports the JSON path of a bad field in a user checklist', () => {
    const bad = JSON.parse(defaultText);
    bad.items[3].severity = 'fatal';
    const error = errorOf(() => parseChecklist(JSON.stringify(bad), 'mine.json'));
    expect(error.code).toBe('REVIEW_CHECKLIST_INVALID');
    expect(error.data?.path).toBe('$.items[3].severity');
    expect(error.message).toContain('$.items[3].severity');
  });

  it('refuses duplicate item ids and names the second occurrence', () => {
    const bad = JSON.parse(defaultText);
    bad.items[2].id = bad.items[0].id;
    expect(errorOf(() => parseChecklist(JSON.stringify(bad), 'dup.json')).data?.path).toBe('$.items[2].id');
  });

  it('refuses text that is not JSON with a clear error instead of a stack', () => {
    const error = errorOf(() => parseChecklist('{ not json', 'broken.json'));
    expect(error.code).toBe('REVIEW_CHECKLIST_INVALID');
    expect(error.message).toContain('broken.json');
  });

  it('refuses unknown rule parameters', () => {
    const bad = JSON.parse(defaultText);
    bad.items[0].params.extra = 1;
    expect(errorOf(() => parseChecklist(JSON.stringify(bad), 'x')).data?.path).toBe('$.items[0].params');
  });

  it('gives an edited checklist a different hash', () => {
    const a = parseChecklist(defaultText, 'a');
    const edited = JSON.parse(defaultText);
    edited.items[0].severity = 'major';
    expect(checklistHash(parseChecklist(JSON.stringify(edited), 'b'))).not.toBe(checklistHash(a));
  });
});
