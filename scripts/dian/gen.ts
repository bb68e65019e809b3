/**
 * Generates the DIAN product's committed files from the DIAN XSD set and the hand-written description
 * (src/dian/spec/): `src/dian/spec/ubl-order.gen.ts`, the element order the writer follows, after checking every
 * path of the mapping against the XSDs; and the outputs of the request description (scripts/dian/render-fields.ts:
 * JSON Schemas, TypeScript types, the field reference); and the place names of DIAN's code lists
 * (scripts/dian/codelists → src/dian/spec/places.gen.ts); and the payroll element tree read from the payroll XSDs
 * (scripts/dian/payroll-schema.ts → src/dian/spec/payroll-schema.gen.ts) and the payroll field reference rendered from it
 * (scripts/dian/payroll-fields.ts → docs/dian-payroll-fields.md).
 *
 * Usage: tsx scripts/dian/gen.ts [--check] [--xsd-dir DIR]   (DIR defaults to DIAN_XSD_DIR or ../shared/dian-xsd)
 * With --check nothing is written; the command fails when a committed file differs from what it would write.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readUblSchema } from './ubl-schema.js';
import { deriveUblOrder, renderUblOrder } from './ubl-order.js';
import { dianFieldOutputs } from './render-fields.js';
import { renderPlaces } from './places.js';
import { readPayrollSchemas, renderPayrollSchema } from './payroll-schema.js';
import { renderPayrollFields } from './payroll-fields.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const dirArg = args.indexOf('--xsd-dir');
const xsdDir = resolve(dirArg >= 0 ? args[dirArg + 1]! : (process.env.DIAN_XSD_DIR ?? resolve(root, '../shared/dian-xsd')));
if (!existsSync(xsdDir)) {
  console.error(`DIAN XSD directory not found: ${xsdDir}. Pass --xsd-dir or set DIAN_XSD_DIR.`);
  process.exit(2);
}

const schema = readUblSchema(xsdDir);
const { order, problems } = deriveUblOrder(schema);
if (problems.length > 0) {
  console.error(`The DIAN mapping does not fit the XSDs:\n${[...new Set(problems)].map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}

const payroll = readPayrollSchemas(xsdDir);
const outputs: { path: string; text: string }[] = [
  { path: 'src/dian/spec/ubl-order.gen.ts', text: renderUblOrder(order) },
  { path: 'src/dian/spec/places.gen.ts', text: renderPlaces(resolve(root, 'scripts/dian/codelists')) },
  { path: 'src/dian/spec/payroll-schema.gen.ts', text: renderPayrollSchema(payroll) },
  { path: 'docs/dian-payroll-fields.md', text: renderPayrollFields(payroll) },
  ...dianFieldOutputs(),
];

const stale: string[] = [];
for (const o of outputs) {
  const file = resolve(root, o.path);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (current === o.text) continue;
  if (check) stale.push(o.path);
  else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, o.text);
  }
}
if (stale.length > 0) {
  console.error(`Generated DIAN files are out of date (run npm run gen):\n${stale.map((s) => `  ${s}`).join('\n')}`);
  process.exit(1);
}
if (!check) console.log(`DIAN: ${outputs.length} file(s) generated.`);
