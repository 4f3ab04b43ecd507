// Validation against the full published SARIF 2.1.0 JSON schema. The schema file is the one
// Microsoft ships in the npm package @microsoft/jest-sarif (MIT licence; lib/schemas/
// sarif-2.1.0-rtm.5.json, "Static Analysis Results Format (SARIF) Version 2.1.0-rtm.5 JSON Schema",
// the final 2.1.0 schema as published to SchemaStore), read from node_modules. It is a draft-04
// schema, hence Ajv's draft-04 class; formats (uri, date-time…) are checked with ajv-formats.
// Its `language` pattern has a stray "]" that is legal only without the regex `u` flag, as draft-04
// patterns (ECMA-262 regular expressions) were written: hence unicodeRegExp: false.
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import * as fs from 'node:fs';

const SCHEMA_PATH = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
let validator: Validate | undefined;

export function validateSarif(doc: unknown): { ok: boolean; errors: string } {
  if (!validator) {
    const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    validator = ajv.compile(schema);
  }
  const ok = validator(doc);
  return { ok, errors: ok ? '' : JSON.stringify(validator.errors, null, 2) };
}
