/**
 * The shape of the payroll schema tree that scripts/dian/payroll-schema.ts generates from DIAN's payroll XSDs
 * (src/dian/spec/payroll-schema.gen.ts). Pure: types only.
 */

/** The built-in XSD types the payroll schemas use. */
export type PayrollXsdType = 'string' | 'integer' | 'decimal' | 'date' | 'time' | 'dateTime' | 'boolean';

/** One element of a payroll schema: occurrences, attributes, text type and children in sequence order. */
export interface PayrollXsdNode {
  /** Local name (the payroll namespace is the default one), or `ext:UBLExtensions`. */
  name: string;
  min: number;
  max: number | 'unbounded';
  /** The element's text type, for elements with character content. */
  text?: PayrollXsdType;
  attrs: readonly { name: string; type: PayrollXsdType; required: boolean }[];
  children: readonly PayrollXsdNode[];
}
