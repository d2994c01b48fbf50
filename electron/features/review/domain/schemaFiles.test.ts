import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { checklistSchema } from './checklist';
import { reportSchema } from './report';

const repoRoot = path.resolve(__dirname, '../../../..');
const files = [
  { file: 'resources/checklist/review_checklist.schema.json', schema: checklistSchema, title: 'CadSight review checklist' },
  { file: 'resources/review/report.schema.json', schema: reportSchema, title: 'CadSight review report' },
];

/** The committed JSON Schemas are generated from the zod contracts (CADSIGHT_WRITE_SCHEMAS=1 rewrites them). */
function generated(entry: (typeof files)[number]): string {
  const json = { ...z.toJSONSchema(entry.schema, { target: 'draft-2020-12' }), title: entry.title };
  return `${JSON.stringify(json, null, 2)}\n`;
}

describe('committed JSON Schema files', () => {
  for (const entry of files) {
    it(`${entry.file} equals the schema generated from the zod contract`, () => {
      const target = path.join(repoRoot, entry.file);
      if (process.env.CADSIGHT_WRITE_SCHEMAS === '1') writeFileSync(target, generated(entry));
      expect(readFileSync(target, 'utf8')).toBe(generated(entry));
    });
  }

  it('the default checklist validates against the JSON Schema with an independent validator (ajv)', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(path.join(repoRoot, files[0]!.file), 'utf8')));
    const checklist = JSON.parse(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'));
    expect(validate(checklist), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...checklist, items: [{ ...checklist.items[0], severity: 'fatal' }] })).toBe(false);
  });
});
