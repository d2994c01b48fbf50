// The .js suffix: the bundle keeps ajv external and Node's ESM resolver needs the file name.
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../domain/contracts/schemaParts';

export interface SchemaIssue {
  path: string;
  message: string;
}

/** Compiles JSON Schema 2020-12 (strict mode) once per schema and reports issues as data. */
export class SchemaValidator {
  private readonly ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  private readonly compiled = new WeakMap<JsonSchema, ValidateFunction>();

  /** Throws when the schema itself is not valid 2020-12 (used by the registry integrity check). */
  compile(schema: JsonSchema): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  issues(schema: JsonSchema, value: unknown, prefix: string): SchemaIssue[] {
    const validate = this.compile(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => ({ path: `${prefix}${e.instancePath}`, message: `${e.message ?? 'invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}` }));
  }
}
