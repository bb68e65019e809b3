/**
 * The heavy steps the offload pool runs in its child processes (see ./pool.ts). Each task calls the public
 * function of the SDK that does the work (`verifyXml`, the src/ecf/xsd validator, `deriveRfceXml`, `renderPdf`),
 * so improved versions of those functions are used here as they are in-process.
 */
import type { DgiiEnvironment } from '../../index.js';
import type { SchemaId, SchemaValidateOptions, SchemaValidationResult } from '../../index.js';
import { deriveRfceXml } from '../../index.js';
import { verifyXml, type VerifyResult } from '../../sign/index.js';
import { createSchemaValidator, type XsdSchemaValidator } from '../../xsd/index.js';

export interface TaskMap {
  xsd: { in: { xsdDir: string; xml: string; schema: SchemaId; options?: SchemaValidateOptions }; out: SchemaValidationResult };
  verify: { in: { xml: string }; out: VerifyResult };
  rfce: { in: { signedXml: string }; out: string };
  pdf: { in: { signedXml: string; environment: DgiiEnvironment }; out: Uint8Array };
  /** Test only (registered when the pool is created with `testTasks`): keeps the process busy for `ms`. */
  block: { in: { ms: number }; out: number };
}
export type TaskName = keyof TaskMap;

const validators = new Map<string, XsdSchemaValidator>();

export const TASKS: { [K in Exclude<TaskName, 'block'>]: (input: TaskMap[K]['in']) => TaskMap[K]['out'] | Promise<TaskMap[K]['out']> } = {
  xsd: ({ xsdDir, xml, schema, options }) => {
    let v = validators.get(xsdDir);
    if (!v) validators.set(xsdDir, (v = createSchemaValidator(xsdDir)));
    return v.validate(xml, schema, options);
  },
  verify: ({ xml }) => verifyXml(xml),
  rfce: ({ signedXml }) => deriveRfceXml(signedXml),
  pdf: async ({ signedXml, environment }) => {
    const { renderPdf } = await import('../../pdf/index.js');
    return renderPdf(signedXml, { environment });
  },
};

/** Busy-waits (a stand-in for a stuck libxml2 call, which no timer or signal inside the process can interrupt). */
export function block({ ms }: { ms: number }): number {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n++;
  return n;
}
