/**
 * POST /api/v1/documents/{tipo} in JSON mode: the ten types, the spec's frequent validation errors (422 with
 * paths, nothing consumed), the no-sequence answer, malformed bodies, media types and size limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECF_TYPES, parseEcfXml, type EcfType } from '../../../../src/ecf/index.js';
import { baseDoc, withLines } from '../../helpers/docs.js';
import { schemaValidator, withPlaceholderSignature } from '../../helpers/xsd.js';
import { body, createHarness, ISSUER_PROFILE, NO_EXPIRY, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** POSTs a valid base document and returns the assigned e-NCF. */
async function issueValid(tipo: EcfType): Promise<string> {
  const res = await h.post(tipo, baseDoc(tipo));
  expect(res.status).toBe(202);
  return (await body(res)).document.e_ncf;
}

const seq = (tipo: string, n: number) => `E${tipo}${String(n).padStart(10, '0')}`;

describe('JSON issue: the ten types', () => {
  it.each(ECF_TYPES)('type %s → 202 with consecutive e-NCF, XML built from the issuer profile and valid against the XSD', async (tipo) => {
    const first = await h.post(tipo, baseDoc(tipo));
    expect(first.status).toBe(202);
    const b1 = await body(first);
    expect(b1.status).toBe('success');
    expect(typeof b1.message).toBe('string');
    expect(Object.keys(b1.document).sort()).toEqual(['document_id', 'e_ncf', 'ecf_type_code', 'status', 'status_code', 'status_description', 'track_id']);
    expect(b1.document).toMatchObject({ ecf_type_code: tipo, e_ncf: seq(tipo, 1), track_id: null, status_code: 1, status: 'received' });
    expect(b1.document.status_description).toMatch(/Recibido/);

    const second = await body(await h.post(tipo, baseDoc(tipo)));
    expect(second.document.e_ncf).toBe(seq(tipo, 2));
    expect(second.document.document_id).not.toBe(b1.document.document_id);

    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, seq(tipo, 1)))!;
    expect(rec).toMatchObject({ status: 'received', source: 'json', issuedAt: '01-04-2026', trackId: null, signedXml: null });
    const parsed = parseEcfXml(rec.unsignedXml);
    expect(parsed.context.encf).toBe(seq(tipo, 1));
    expect(parsed.context.fecha_emision).toBe('01-04-2026');
    expect(parsed.context.emisor).toMatchObject({ rnc: ISSUER_PROFILE.rnc, razon_social: ISSUER_PROFILE.razon_social, direccion: ISSUER_PROFILE.direccion });
    if (NO_EXPIRY.includes(tipo)) expect(parsed.context.fecha_vencimiento_secuencia).toBeUndefined();
    else expect(parsed.context.fecha_vencimiento_secuencia).toBe('31-12-2027');
    expect(parsed.signed).toBe(false);
    expect(schemaValidator().validate(withPlaceholderSignature(rec.unsignedXml), `ECF-${tipo}` as never, { relaxed32: rec.summary }).valid).toBe(true);
    const doc = baseDoc(tipo);
    expect(rec.totalAmount).toBe(Number(doc.totales.monto_total).toFixed(2));
    expect(rec.totalItbis).toBe(Number(doc.totales.total_itbis ?? 0).toFixed(2));
  });

  it('marks a 32 below RD$250,000 as a summary and one above it as a full e-CF', async () => {
    const small = await body(await h.post('32', baseDoc('32')));
    expect((await h.storage.getDocumentByEncf(h.issuer.id, small.document.e_ncf))!.summary).toBe(true);
    const big = withLines('32', 1, {
      indicador_facturacion: 1,
      nombre: 'Equipo industrial',
      indicador_bien_servicio: '1',
      cantidad: 1,
      precio_unitario: 300000,
    });
    big.comprador = { rnc: '131880738', razon_social: 'Cliente SRL' }; // required from the threshold on
    const res = await h.post('32', big);
    expect(res.status).toBe(202);
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, (await body(res)).document.e_ncf))!;
    expect(rec.summary).toBe(false);
    expect(rec.totalAmount).toBe('354000.00');
  });

  it('treats null members as omitted', async () => {
    const doc = baseDoc('31');
    doc.id_doc.indicador_monto_gravado = null;
    doc.comprador.correo = null;
    doc.informacion_adicional = null;
    const res = await h.post('31', doc);
    expect(res.status).toBe(202);
  });

  it('accepts a 10,000-line type 32 below the threshold (within the default body limit)', async () => {
    const doc = withLines('32', 10_000, { indicador_facturacion: 4, nombre: 'Chicle', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 5 });
    const text = JSON.stringify(doc);
    expect(text.length).toBeLessThan(12 * 1024 * 1024);
    const res = await h.post('32', text);
    expect(res.status).toBe(202);
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, (await body(res)).document.e_ncf))!;
    expect(rec.summary).toBe(true);
    expect(rec.totalAmount).toBe('50000.00');
  });
});

/** The spec's "Frequent validation errors" table, one mutation per row, with the path it must report. */
// "Income type missing" (33, 34) is no longer a refusal: the XSDs make TipoIngresos optional and DGII accepts a
// note without it (issue 15); never-stricter.test.ts asserts the 202 with the ECF-IDDOC-TIPO-INGRESOS warning.
const FREQUENT: [string, EcfType, string, (d: any) => void][] = [
  [
    'item retention block missing',
    '41',
    'items.0.retencion',
    (d) => {
      delete d.items[0].retencion;
    },
  ],
  [
    'item retention block missing',
    '47',
    'items.0.retencion',
    (d) => {
      delete d.items[0].retencion;
    },
  ],
  [
    'retention indicator missing',
    '41',
    'items.0.retencion.indicador',
    (d) => {
      delete d.items[0].retencion.indicador;
    },
  ],
  [
    'ISR withheld missing',
    '47',
    'items.0.retencion.isr_retenido',
    (d) => {
      delete d.items[0].retencion.isr_retenido;
    },
  ],
  [
    'income type sent',
    '41',
    'id_doc.tipo_ingresos',
    (d) => {
      d.id_doc.tipo_ingresos = '01';
    },
  ],
  [
    'buyer tax id missing',
    '41',
    'comprador.rnc',
    (d) => {
      delete d.comprador.rnc;
    },
  ],
  [
    'buyer tax id sent',
    '47',
    'comprador.rnc',
    (d) => {
      d.comprador.rnc = '131880738';
    },
  ],
  [
    'total ITBIS sent',
    '47',
    'totales.total_itbis',
    (d) => {
      d.totales.total_itbis = 0;
    },
  ],
  [
    'credit-note indicator missing',
    '34',
    'id_doc.indicador_nota_credito',
    (d) => {
      delete d.id_doc.indicador_nota_credito;
    },
  ],
  [
    'reference block missing',
    '33',
    'referencia',
    (d) => {
      delete d.referencia;
    },
  ],
  [
    'reference block missing',
    '34',
    'referencia',
    (d) => {
      delete d.referencia;
    },
  ],
  [
    'modification code invalid',
    '33',
    'referencia.codigo_modificacion',
    (d) => {
      d.referencia.codigo_modificacion = '5';
    },
  ],
  [
    'modification code invalid',
    '34',
    'referencia.codigo_modificacion',
    (d) => {
      d.referencia.codigo_modificacion = '5';
    },
  ],
  [
    'modified NCF date not dd-MM-yyyy',
    '34',
    'referencia.fecha_ncf_modificado',
    (d) => {
      d.referencia.fecha_ncf_modificado = '2026-03-15';
    },
  ],
  [
    'total does not reconcile',
    '31',
    'totales.monto_total',
    (d) => {
      d.totales.monto_total += 10;
    },
  ],
  [
    'ITBIS rate 1 sent',
    '46',
    'totales.itbis1',
    (d) => {
      d.totales.itbis1 = 18;
    },
  ],
  [
    'exempt amount sent',
    '46',
    'totales.monto_exento',
    (d) => {
      d.totales.monto_exento = 0;
    },
  ],
  [
    'buyer name missing',
    '44',
    'comprador.razon_social',
    (d) => {
      delete d.comprador.razon_social;
    },
  ],
  [
    'buyer name missing',
    '46',
    'comprador.razon_social',
    (d) => {
      delete d.comprador.razon_social;
    },
  ],
  [
    // "USA" is a country name the XSD (Alfa60Type) and DGII accept (issue 15): two capitals that are no ISO code remain a refusal.
    'buyer country: two letters that are no ISO code',
    '46',
    'comprador.pais',
    (d) => {
      d.comprador.pais = 'XX';
    },
  ],
  [
    'rate-3 amounts missing',
    '46',
    'totales.monto_gravado_i3',
    (d) => {
      delete d.totales.monto_gravado_i3;
      delete d.totales.itbis3;
      delete d.totales.total_itbis3;
    },
  ],
  [
    'taxable total sent',
    '44',
    'totales.monto_gravado_total',
    (d) => {
      d.totales.monto_gravado_total = 150;
    },
  ],
];

describe('JSON issue: frequent validation errors', () => {
  it.each(FREQUENT)('%s (type %s) → 422 at %s, and the number is not consumed', async (_name, tipo, path, mutate) => {
    const before = await issueValid(tipo);
    const doc = baseDoc(tipo);
    mutate(doc);
    const res = await h.post(tipo, doc);
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b.status).toBe('error');
    expect(b.message).toMatch(/no superó la validación/);
    expect(b.document).toMatchObject({ status_code: 2, status: 'rejected_validation' });
    expect(typeof b.document.status_description).toBe('string');
    expect(b.document.detailed_errors[path]?.length).toBeGreaterThan(0);
    expect(b.document.errors.length).toBeGreaterThan(0);
    expect(b.document.errors.every((e: unknown) => typeof e === 'string')).toBe(true);
    // The failed POST consumed nothing: the next valid one gets the consecutive right after `before`.
    const after = await issueValid(tipo);
    expect(Number(after.slice(3))).toBe(Number(before.slice(3)) + 1);
  });

  it('an invalid {tipo} → 422 rejected_validation', async () => {
    const res = await h.post('30', baseDoc('31'));
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b.document).toMatchObject({ status_code: 2, status: 'rejected_validation' });
    expect(b.document.detailed_errors.tipo[0]).toMatch(/Tipo de e-CF inválido/);
  });

  it('malformed JSON → 422 with a Spanish reason and nothing consumed', async () => {
    const before = await issueValid('31');
    const res = await h.post('31', '{"id_doc": {"tipo_ingresos": "01",, }');
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b.message).toBe('El cuerpo no es un JSON válido.');
    expect(b.document).toMatchObject({ status_code: 2, status: 'rejected_validation' });
    expect(b.document.errors[0]).toMatch(/JSON mal formado/);
    expect(b.document.detailed_errors).toBeUndefined();
    const empty = await h.post('31', '');
    expect(empty.status).toBe(422);
    expect((await body(empty)).document.errors[0]).toMatch(/vacío/);
    expect(await issueValid('31')).toBe(seq('31', Number(before.slice(3)) + 1));
  });

  it('a JSON array or string body → 422 (not a crash)', async () => {
    for (const payload of ['[]', '"hola"', '42']) {
      const res = await h.post('31', payload);
      expect(res.status).toBe(422);
      expect((await body(res)).document.status).toBe('rejected_validation');
    }
  });

  it('invalid UTF-8 → 422', async () => {
    const res = await h.call('/api/v1/documents/31', {
      method: 'POST',
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect((await body(res)).message).toMatch(/UTF-8/);
  });
});

describe('JSON issue: media types and limits', () => {
  it('415 for an unsupported or missing Content-Type, and for a non-UTF-8 charset', async () => {
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=iso-8859-1']) {
      const res = await h.post('31', baseDoc('31'), { contentType: ct });
      expect(res.status, ct).toBe(415);
      const b = await body(res);
      expect(b).toMatchObject({ status: 'error', document: null });
      expect(b.message).toMatch(/(Tipo de contenido no soportado|UTF-8)/);
    }
    const none = await h.call('/api/v1/documents/31', { method: 'POST', body: new TextEncoder().encode(JSON.stringify(baseDoc('31'))) });
    expect(none.status).toBe(415);
  });

  it('accepts application/json with charset=utf-8 and any case', async () => {
    const res = await h.post('31', baseDoc('31'), { contentType: 'Application/JSON; Charset=UTF-8' });
    expect(res.status).toBe(202);
  });

  it('413 with an envelope above the configured limit (declared and streamed)', async () => {
    const small = await createHarness({ limits: { jsonBytes: 2048, xmlBytes: 2048 } });
    try {
      const doc = withLines('31', 40);
      const res = await small.post('31', doc);
      expect(res.status).toBe(413);
      const b = await body(res);
      expect(b).toMatchObject({ status: 'error', document: null });
      expect(b.message).toMatch(/excede el límite de 2 KB/);
      // Without Content-Length (a stream), the limit still applies while reading.
      const text = JSON.stringify(doc);
      const stream = new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(text));
          c.close();
        },
      });
      const streamed = await small.app.request('/api/v1/documents/31', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${small.token}` },
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      // Nothing was consumed: the first valid document still gets consecutive 1.
      expect((await body(await small.post('31', baseDoc('31')))).document.e_ncf).toBe(seq('31', 1));
    } finally {
      await small.close();
    }
  });
});

describe('JSON issue: sequences', () => {
  it('no sequence for the type → the exact 422 of the spec (no detailed_errors)', async () => {
    const bare = await createHarness({ sequences: false });
    try {
      const res = await bare.post('31', baseDoc('31'));
      expect(res.status).toBe(422);
      const b = await body(res);
      expect(b.status).toBe('error');
      expect(b.message).toBe('El e-CF no pudo ser recibido.');
      expect(Object.keys(b.document).sort()).toEqual(['errors', 'status', 'status_code', 'status_description']);
      expect(b.document).toMatchObject({ status_code: 2, status: 'rejected_validation' });
      expect(b.document.errors).toEqual(['No existe una secuencia de e-NCF vigente o disponible para el tipo 31.']);
    } finally {
      await bare.close();
    }
  });

  it('an exhausted, inactive or expired sequence gives the no-sequence answer', async () => {
    const t = await createHarness({ sequenceSize: 1 });
    try {
      expect((await t.post('43', baseDoc('43'))).status).toBe(202);
      const exhausted = await t.post('43', baseDoc('43'));
      expect(exhausted.status).toBe(422);
      expect((await body(exhausted)).message).toBe('El e-CF no pudo ser recibido.');

      await t.storage.setSequenceActive(t.sequences.get('44')!.id, false);
      const inactive = await t.post('44', baseDoc('44'));
      expect(inactive.status).toBe(422);
      expect((await body(inactive)).document.errors[0]).toMatch(/tipo 44/);

      t.now.value = new Date('2028-01-02T14:00:00Z'); // after 31-12-2027
      const doc = baseDoc('45');
      doc.id_doc.fecha_limite_pago = '01-02-2028';
      const expired = await t.post('45', doc);
      expect(expired.status).toBe(422);
      expect((await body(expired)).document.errors[0]).toMatch(/tipo 45/);
    } finally {
      await t.close();
    }
  });

  it('uses the Dominican date at reception: 23:30 in Santo Domingo is still the same day', async () => {
    const t = await createHarness();
    try {
      t.now.value = new Date('2026-04-02T03:30:00Z'); // 01-04-2026 23:30 in UTC−4
      const b = await body(await t.post('31', baseDoc('31')));
      expect((await t.storage.getDocumentByEncf(t.issuer.id, b.document.e_ncf))!.issuedAt).toBe('01-04-2026');
    } finally {
      await t.close();
    }
  });

  it('concurrent POSTs get distinct consecutive numbers, with failures in between consuming none', async () => {
    const t = await createHarness();
    try {
      const bad = baseDoc('31');
      delete bad.comprador.rnc;
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => t.post('31', i % 3 === 2 ? bad : baseDoc('31'))));
      expect(results.filter((r) => r.status === 422)).toHaveLength(10);
      const numbers = await Promise.all(results.filter((r) => r.status === 202).map(async (r) => (await body(r)).document.e_ncf as string));
      expect(numbers.sort()).toEqual(Array.from({ length: 20 }, (_, i) => seq('31', i + 1)));
    } finally {
      await t.close();
    }
  });

  it('another issuer has its own numbering', async () => {
    const b = await body(await h.post('45', baseDoc('45'), { token: h.other.token }));
    expect(b.document.e_ncf).toBe(seq('45', 1));
    const rec = (await h.storage.getDocumentByEncf(h.other.issuer.id, b.document.e_ncf))!;
    expect(parseEcfXml(rec.unsignedXml).context.emisor.rnc).toBe(h.other.issuer.rnc);
  });
});
