/**
 * The payroll CUNE as the local DIAN recomputes it from a NominaIndividual's attributes and totals (§3.4): the
 * values it reads are the ones `cune` hashes, a changed total no longer matches, and bad values are refused as
 * values. (A full SendNominaSync acceptance waits for the payroll builder, issue 22.)
 */
import { describe, expect, it } from 'vitest';
import { cune } from '../../../src/dian/index.js';
import { payrollCune } from '../../../src/dian/simulator/payroll.js';
import { parseXmlStrictly } from '../../../src/shared/xml/strict-parser.js';

const values = {
  number: 'NOM1001',
  generationDate: '2024-05-10',
  generationTime: '10:00:00-05:00',
  accruedTotal: '3500000.00',
  deductionsTotal: '280000.00',
  voucherTotal: '3220000.00',
  employerNit: '900373076',
  employeeDocument: '1020304050',
  documentType: '102' as const,
  softwarePin: '12345',
  environment: '2' as const,
};
const declared = cune(values).hash;

const payroll = (voucher = values.voucherTotal) =>
  parseXmlStrictly(
    `<NominaIndividual xmlns="dian:gov:co:facturaelectronica:NominaIndividual"><NumeroSecuenciaXML Numero="${values.number}"/>` +
      `<ProveedorXML SoftwareID="s"/><InformacionGeneral FechaGen="${values.generationDate}" HoraGen="${values.generationTime}" TipoXML="102" CUNE="${declared}" Ambiente="2"/>` +
      `<Empleador NIT="${values.employerNit}"/><Trabajador NumeroDocumento="${values.employeeDocument}"/>` +
      `<DevengadosTotal>${values.accruedTotal}</DevengadosTotal><DeduccionesTotal>${values.deductionsTotal}</DeduccionesTotal><ComprobanteTotal>${voucher}</ComprobanteTotal></NominaIndividual>`,
  ).doc!.documentElement!;

describe('payrollCune', () => {
  it('reads the values the CUNE formula hashes and recomputes the declared CUNE', () => {
    expect(payrollCune(payroll(), '12345')).toEqual({ ok: true, hash: declared, declared });
  });

  it('a changed total or another PIN gives another CUNE; a malformed amount is a value, not a throw', () => {
    expect(payrollCune(payroll('3220001.00'), '12345')).toMatchObject({ ok: true, declared });
    expect((payrollCune(payroll('3220001.00'), '12345') as { hash: string }).hash).not.toBe(declared);
    expect((payrollCune(payroll(), '54321') as { hash: string }).hash).not.toBe(declared);
    expect(payrollCune(payroll('tres'), '12345')).toMatchObject({ ok: false });
  });
});
