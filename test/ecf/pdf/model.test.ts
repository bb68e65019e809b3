import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildPrintModel } from '../../../src/ecf/pdf/model.js';
import { formatMoney, formatNumber, signingInstant } from '../../../src/ecf/pdf/format.js';
import { label, UNIDADES_MEDIDA, provinceName } from '../../../src/ecf/pdf/catalogs.js';
import { qrMatrix } from '../../../src/shared/pdf/qr.js';
import { TextKit } from '../../../src/shared/pdf/text.js';
import { ECF_TYPE_INFO } from '../../../src/ecf/spec/doc-types.js';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { repoRoot } from '../helpers/env.js';
import { minimal, richDocs, context } from './fixtures.js';

const security = { code: 'Ab+/12', qrUrl: 'https://ecf.dgii.gov.do/testecf/ConsultaTimbre?x=1' };

describe('print model', () => {
  it('type differences come from data: no type-code comparisons in the PDF code (src/ecf/pdf, src/shared/pdf)', () => {
    const dirs = [join(repoRoot, 'src/ecf/pdf'), join(repoRoot, 'src/shared/pdf')];
    for (const f of dirs.flatMap((dir) =>
      readdirSync(dir)
        .filter((n) => n.endsWith('.ts'))
        .map((n) => join(dir, n)),
    )) {
      const src = readFileSync(f, 'utf8');
      expect(src, f).not.toMatch(/tipo\s*[!=]==?\s*['"]\d\d['"]/);
      expect(src, f).not.toMatch(/['"](31|32|33|34|41|43|44|45|46|47)['"]\s*[!=]==?\s*\w*tipo/);
    }
  });

  it.each(ECF_TYPES.map((t) => [t]))('type %s: the sequence expiry follows ECF_TYPE_INFO.hidesSequenceExpiry', (tipo) => {
    const { doc, ctx } = minimal(tipo);
    const m = buildPrintModel({ tipo, document: doc, context: { ...ctx, fecha_vencimiento_secuencia: '31-12-2027' } }, security);
    const shown = m.docInfo.some((p) => p.label === 'Válido hasta');
    expect(shown).toBe(!ECF_TYPE_INFO[tipo].hidesSequenceExpiry);
    expect(m.typeName).toBe(ECF_TYPE_INFO[tipo].nameEs);
  });

  it('the buyer block follows the document: none on 43, supplier on 41, beneficiary on 47', () => {
    const title = (t: (typeof ECF_TYPES)[number]) => buildPrintModel({ tipo: t, ...minimalInput(t) }, security).counterparty?.title;
    expect(title('43')).toBeUndefined();
    expect(title('31')).toBe('Datos del comprador');
    expect(title('41')).toBe('Datos del proveedor');
    expect(title('47')).toBe('Datos del beneficiario');
    const m46 = buildPrintModel({ tipo: '46', document: richDocs['46'](), context: context('46') }, security);
    expect(m46.counterparty!.pairs).toContainEqual({ label: 'País', value: 'Estados Unidos' });
    expect(m46.counterparty!.pairs).toContainEqual({ label: 'Identificador extranjero', value: 'EIN 12-3456789' });
  });

  it('item columns appear only when some line uses them', () => {
    const headers = (t: (typeof ECF_TYPES)[number], doc?: Record<string, unknown>) =>
      buildPrintModel({ tipo: t, ...minimalInput(t), ...(doc ? { document: doc } : {}) }, security).items.columns.map((c) => c.header);
    expect(headers('31')).toEqual(['Cant.', 'Descripción', 'Precio unitario', 'ITBIS', 'Monto']);
    expect(headers('31', richDocs['31']())).toEqual(['Cant.', 'Unidad', 'Descripción', 'Precio unitario', 'Desc. / Rec.', 'ITBIS', 'Monto']);
    expect(headers('41')).toEqual(['Cant.', 'Descripción', 'Precio unitario', 'Retención', 'ITBIS', 'Monto']);
  });

  it('honours a declared pagination: page break before each declared page and its subtotal row', () => {
    const doc = richDocs['31']();
    doc.paginacion = [
      { pagina: 1, no_linea_desde: 1, no_linea_hasta: 2, monto: 100 },
      { pagina: 2, no_linea_desde: 3, no_linea_hasta: 4, monto: 200 },
    ];
    const rows = buildPrintModel({ tipo: '31', document: doc, context: context('31') }, security).items.rows;
    expect(rows.map((r) => (r.summary ? 'S' : r.breakBefore ? 'B' : 'L')).join('')).toBe('LLSBLS');
  });

  it('totals: rows only for present fields, additional taxes by code, withholdings', () => {
    const m = buildPrintModel({ tipo: '41', ...minimalInput('41') }, security);
    expect(m.totals.map((t) => t.label)).toEqual([
      'Monto gravado ITBIS 18%',
      'Total monto gravado',
      'ITBIS 18%',
      'Total ITBIS',
      'TOTAL RD$',
      'ITBIS retenido',
      'ISR retenido',
    ]);
    const doc = minimal('31').doc;
    doc.totales.impuestos_adicionales = [{ tipo_impuesto: '001', tasa_impuesto_adicional: 10, otros_impuestos_adicionales: 20 }];
    const m31 = buildPrintModel({ tipo: '31', document: doc, context: context('31') }, security);
    expect(m31.totals).toContainEqual({ label: 'Propina legal (001, tasa 10)', value: '20.00' });
  });
});

function minimalInput(t: (typeof ECF_TYPES)[number]) {
  const { doc, ctx } = minimal(t);
  return { document: doc, context: ctx };
}

describe('formatting (exact decimals)', () => {
  it('formats money with thousands separators from the decimal text of the number', () => {
    expect(formatMoney(1234567890123.45)).toBe('1,234,567,890,123.45');
    expect(formatMoney(0.1)).toBe('0.10');
    expect(formatMoney(236)).toBe('236.00');
    expect(formatMoney(-1500.5)).toBe('-1,500.50');
    expect(formatMoney(999999.995)).toBe('1,000,000.00');
    expect(formatNumber(1185.2575, 2, 4)).toBe('1,185.2575');
    expect(formatNumber(2, 0, 2)).toBe('2');
  });

  it('FechaHoraFirma (GMT-4) is the PDF date', () => {
    expect(signingInstant('01-04-2026 10:00:00')!.toISOString()).toBe('2026-04-01T14:00:00.000Z');
    expect(signingInstant('31-12-2025 23:30:00')!.toISOString()).toBe('2026-01-01T03:30:00.000Z');
    expect(signingInstant('2026-04-01')).toBeNull();
  });

  it('catalog codes in words', () => {
    expect(label(UNIDADES_MEDIDA, '46')).toBe('Saco');
    expect(label(UNIDADES_MEDIDA, '043')).toBe('Unidad');
    expect(label(UNIDADES_MEDIDA, '99')).toBe('99');
    expect(provinceName('320100')).toBe('Santo Domingo');
    expect(provinceName('010000')).toBe('Distrito Nacional');
  });
});

describe('text and QR primitives', () => {
  it('keeps Spanish characters and replaces what Helvetica (WinAnsi) cannot encode', async () => {
    const pdf = await PDFDocument.create();
    const kit = new TextKit({ regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) });
    expect(kit.clean('Peña Ñandú ¿Cómo? ¡Sí! «ü» € ·', 'regular')).toBe('Peña Ñandú ¿Cómo? ¡Sí! «ü» € ·');
    expect(kit.clean('Ōsaka 東京 ✓', 'regular')).toBe('Osaka ?? ?');
    expect(kit.clean('a\tb\u0007c', 'regular')).toBe('a b c');
    const style = { font: 'regular' as const, size: 8 };
    for (const line of kit.wrap('x'.repeat(200), style, 50)) expect(kit.width(line, style)).toBeLessThanOrEqual(50);
    expect(kit.wrap('Cemento gris Portland tipo I, funda 42.5 kg', style, 80)).toEqual(['Cemento gris Portland', 'tipo I, funda 42.5 kg']);
  });

  it('QR: version 8 when the URL fits, the smallest larger version otherwise', () => {
    expect(
      qrMatrix('https://fc.dgii.gov.do/ecf/ConsultaTimbreFC?RncEmisor=131880738&ENCF=E320000000064&MontoTotal=6225.09&CodigoSeguridad=uabnyh').version,
    ).toBe(8);
    // DGII's own ConsultaTimbre example (DT) is 205 bytes: more than version 8 holds (192 bytes at L), so 9.
    const dgiiExample =
      'https://ecf.dgii.gov.do/testecf/consultatimbre?rncemisor=130000001&rnccomprador=130000002&encf=e310000000001&fechaemision=10-10-2020&montototal=02.11&fechafirma=10-10-2020%2009:00:00&codigoseguridad=dcp79q';
    expect(qrMatrix(dgiiExample)).toMatchObject({ version: 9, errorCorrection: 'L', size: 53 });
    expect(qrMatrix(dgiiExample, 'M').version).toBe(10);
    // 192 bytes: the most version 8 holds at level L.
    expect(qrMatrix(dgiiExample.slice(0, 192)).version).toBe(8);
    expect(qrMatrix(dgiiExample.slice(0, 193)).version).toBe(9);
    const long = qrMatrix(`https://ecf.dgii.gov.do/ecf/ConsultaTimbre?${'x'.repeat(200)}`, 'M');
    expect(long.version).toBeGreaterThan(8);
    expect(long.size).toBe(17 + 4 * long.version);
    expect(qrMatrix('hola', 'H', 8).errorCorrection).toBe('H');
  });
});
