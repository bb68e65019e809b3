/** src/ecf/messages/hints.ts: hints are wired into the shape layer and every hint can actually fire. */
import { describe, expect, it } from 'vitest';
import { hintFor, hintKeys } from '../../../src/ecf/messages/hints.js';
import type { EcfType } from '../../../src/ecf/spec/model.js';
import { allows } from '../../../src/ecf/validate/rules/shared.js';
import { ECF_TABLE } from '../../../src/ecf/spec/ecf-table.gen.js';
import { baseDoc } from '../helpers/docs.js';
import { expectError, validate } from './helpers.js';

const TABLE_PATHS = new Set(ECF_TABLE.rows.map((r) => r.json?.replace(/\[\]$/, '')).filter(Boolean));

describe('hints', () => {
  it('every hinted path is a JSON path of the field table (47 isr_retenido included)', () => {
    for (const { path } of hintKeys()) {
      const ok = TABLE_PATHS.has(path) || path === 'items[].retencion.isr_retenido';
      expect(ok, path).toBe(true);
    }
  });

  it('not_allowed hints only name types whose XSD lacks the element; required hints only types that have it', () => {
    for (const { code, path, tipo } of hintKeys()) {
      const has = allows(tipo as EcfType, path);
      expect(has, `${code} ${path} ${tipo}`).toBe(code === 'required');
    }
  });

  it('not_allowed message carries the hint: 44 totales.monto_gravado_total', () => {
    const d = baseDoc('44');
    d.totales.monto_gravado_total = 1;
    const e = expectError(validate('44', d), 'totales.monto_gravado_total', 'not_allowed');
    expect(e.message).toBe('Campo no permitido en el tipo 44. El tipo 44 (regímenes especiales) no lleva montos gravados ni ITBIS; use monto_exento.');
  });

  it('required message carries the hint: 41 items.0.retencion', () => {
    const d = baseDoc('41');
    delete d.items[0].retencion;
    const e = expectError(validate('41', d), 'items.0.retencion', 'required');
    expect(e.message).toBe('Campo requerido. El tipo 41 exige el bloque de retención (retencion) en cada ítem.');
  });

  it('no hint where none applies', () => {
    expect(hintFor('not_allowed', 'totales.monto_gravado_total', '31')).toBeUndefined();
    const d = baseDoc('31');
    (d as Record<string, any>).foo = 1;
    expectError(validate('31', d), 'foo', 'unknown_field', /desconocido/);
  });
});
