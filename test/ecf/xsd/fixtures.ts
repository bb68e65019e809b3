/** Hand-written minimal documents for the XSD tests (values chosen to satisfy the official facets). */
import { deflateRawSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeIo as sharedFakeIo } from '../helpers/cli.js';

export interface DocOptions {
  items?: number;
  /** 1-based item whose IndicadorFacturacion gets the invalid value 9. */
  badItem?: number;
  /** Inserted between elements (e.g. '\n  ') to make a multi-line document. */
  sep?: string;
  /** NumeroLinea of item i (default i). */
  lineNo?: (i: number) => number;
  /** Omit the trailing Signature (an unsigned document). */
  unsigned?: boolean;
  razonSocial?: string;
  /** Extra XML placed right after the Emisor element of Encabezado (for "not expected" cases). */
  afterEmisor?: string;
  /** Paginacion/Pagina count (type 32 only). */
  pages?: number;
}

const SIGNATURE = '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/><SignatureValue>AAAA</SignatureValue></Signature>';

function items(o: DocOptions): string {
  const n = o.items ?? 1,
    sep = o.sep ?? '';
  let s = '';
  for (let i = 1; i <= n; i++) {
    s +=
      `<Item>${sep}<NumeroLinea>${o.lineNo ? o.lineNo(i) : i}</NumeroLinea>${sep}<IndicadorFacturacion>${i === o.badItem ? 9 : 4}</IndicadorFacturacion>` +
      `${sep}<NombreItem>Artículo ${i}</NombreItem>${sep}<IndicadorBienoServicio>1</IndicadorBienoServicio>${sep}<CantidadItem>1</CantidadItem>` +
      `${sep}<PrecioUnitarioItem>100.00</PrecioUnitarioItem>${sep}<MontoItem>100.00</MontoItem>${sep}</Item>${sep}`;
  }
  return s;
}

/** A type-43 (gastos menores) e-CF: the smallest e-CF shape (no Comprador). */
export function ecf43(o: DocOptions = {}): string {
  const sep = o.sep ?? '',
    n = o.items ?? 1;
  return (
    `<?xml version="1.0" encoding="utf-8"?>${sep}<ECF>${sep}<Encabezado>${sep}<Version>1.0</Version>${sep}` +
    `<IdDoc><TipoeCF>43</TipoeCF><eNCF>E430000000001</eNCF><FechaVencimientoSecuencia>31-12-2026</FechaVencimientoSecuencia></IdDoc>${sep}` +
    `<Emisor><RNCEmisor>131880681</RNCEmisor><RazonSocialEmisor>${o.razonSocial ?? 'Comercial Ñandú & Hijos, S.R.L.'.replace('&', '&amp;')}</RazonSocialEmisor>` +
    `<DireccionEmisor>Av. Winston Churchill 1</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>${sep}${o.afterEmisor ?? ''}` +
    `<Totales><MontoExento>${n * 100}.00</MontoExento><MontoTotal>${n * 100}.00</MontoTotal></Totales>${sep}</Encabezado>${sep}` +
    `<DetallesItems>${sep}${items(o)}</DetallesItems>${sep}<FechaHoraFirma>01-04-2026 10:30:00</FechaHoraFirma>${sep}${o.unsigned ? '' : SIGNATURE}</ECF>`
  );
}

/** A type-32 (consumo) e-CF; `Comprador` is required but may be empty. */
export function ecf32(o: DocOptions = {}): string {
  const n = o.items ?? 1;
  let pag = '';
  if (o.pages) {
    pag = '<Paginacion>';
    for (let p = 1; p <= o.pages; p++) pag += `<Pagina><PaginaNo>${p}</PaginaNo><NoLineaDesde>${p}</NoLineaDesde><NoLineaHasta>${p}</NoLineaHasta></Pagina>`;
    pag += '</Paginacion>';
  }
  return (
    `<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><Version>1.0</Version>` +
    `<IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000001</eNCF><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago>${o.pages && o.pages > 1 ? `<TotalPaginas>${o.pages}</TotalPaginas>` : ''}</IdDoc>` +
    `<Emisor><RNCEmisor>131880681</RNCEmisor><RazonSocialEmisor>Colmado La Esquina</RazonSocialEmisor><DireccionEmisor>Calle 1</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>` +
    `<Comprador/><Totales><MontoExento>${n * 100}.00</MontoExento><MontoTotal>${n * 100}.00</MontoTotal></Totales></Encabezado>` +
    `<DetallesItems>${items(o)}</DetallesItems>${pag}<FechaHoraFirma>01-04-2026 10:30:00</FechaHoraFirma>${o.unsigned ? '' : SIGNATURE}</ECF>`
  );
}

export function semilla(valor = 'abc123'): string {
  return `<?xml version="1.0" encoding="utf-8"?><SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><valor>${valor}</valor><fecha>2026-04-01T10:30:00-04:00</fecha>${SIGNATURE}</SemillaModel>`;
}

export function acecf(montoTotal = '35400.00', fechaEmision = '01-04-2026'): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><ACECF><DetalleAprobacionComercial><Version>1.0</Version><RNCEmisor>131880681</RNCEmisor>` +
    `<eNCF>E310000000001</eNCF><FechaEmision>${fechaEmision}</FechaEmision><MontoTotal>${montoTotal}</MontoTotal><RNCComprador>101672919</RNCComprador>` +
    `<Estado>1</Estado><FechaHoraAprobacionComercial>02-04-2026 09:00:00</FechaHoraAprobacionComercial></DetalleAprobacionComercial></ACECF>`
  );
}

/** 1-based line and column (in code points) of the `nth` (1-based) occurrence of `needle` in `text`. */
export function positionOf(text: string, needle: string, nth = 1): { line: number; column: number } {
  let at = -1;
  for (let k = 0; k < nth; k++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`not found: ${needle}`);
  }
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line, column: [...text.slice(lineStart, at)].length + 1 };
}

export function tempDir(prefix = 'ecf-xsd-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Tiny ZIP writer for tests: each entry stored (method 0) or deflated (method 8), with a UTF-8 name flag. */
export function makeZip(entries: Array<{ name: string; data: Uint8Array; method?: 0 | 8; corruptCrc?: boolean }>): Buffer {
  const crc = (d: Uint8Array) => (zlib as unknown as { crc32: (d: Uint8Array) => number }).crc32(d) >>> 0;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const method = e.method ?? 8;
    const body = method === 8 ? deflateRawSync(e.data) : Buffer.from(e.data);
    const sum = (crc(e.data) ^ (e.corruptCrc ? 1 : 0)) >>> 0;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(0x800, 6);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt32LE(sum, 14);
    lh.writeUInt32LE(body.length, 18);
    lh.writeUInt32LE(e.data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(0x800, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt32LE(sum, 16);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(e.data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, body);
    centrals.push(ch, name);
    offset += lh.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A CliIo that records output; files are read from `files` first, then from disk. */
export function fakeIo(env: Record<string, string | undefined> = {}, files: Record<string, string | Uint8Array> = {}) {
  return sharedFakeIo(files, env, { disk: true });
}
