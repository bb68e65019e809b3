/**
 * Timbre (QR) URLs printed on the e-CF's printed representation (DT pp. 36–39, IT §17.2.3).
 */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { ECF_TYPE_INFO } from '../spec/doc-types.js';
import { isDgiiEnvironment, type DgiiEnvironment } from '../spec/environments.js';
import { isEcfType } from '../spec/model.js';
import { parseDocument, requireText, rootName, textAt } from './read-xml.js';
import { securityCode } from './security-code.js';

export type { DgiiEnvironment } from '../spec/environments.js';

/** Values that go into the timbre URL, as text exactly as they appear in the XML. */
export interface QrFields {
  rncEmisor: string;
  /** Buyer RNC / cédula; omitted from the URL when absent and for types 43 and 47. */
  rncComprador?: string | null;
  /** e-NCF, e.g. `E310000000001`. */
  encf: string;
  /** e-CF type (`31`…`47`); taken from the e-NCF (characters 2–3) when omitted. */
  tipoeCF?: string | number;
  /** `FechaEmision`, `dd-MM-yyyy`. Not used by the consumption-invoice (type 32 < 250,000) URL. */
  fechaEmision?: string | null;
  /** `MontoTotal` text as in the XML (not reformatted). */
  montoTotal: string;
  /** `FechaHoraFirma`, `dd-MM-yyyy HH:mm:ss`. Not used by the consumption-invoice URL. */
  fechaFirma?: string | null;
  /** First six characters of the SignatureValue (see `securityCode`). */
  codigoSeguridad: string;
}

/** Options of {@link qrUrl}. */
export interface QrUrlOptions {
  environment: DgiiEnvironment;
  /** Scheme and host of the e-CF service. Default `https://ecf.dgii.gov.do`. */
  baseUrl?: string;
  /** Scheme and host of the consumption-invoice service. Default `https://fc.dgii.gov.do`. */
  fcBaseUrl?: string;
  /**
   * Casing of the environment path segment. `lower` (default): `testecf` / `certecf` / `ecf`, as in
   * DT and as a production case-sensitivity fix found necessary; `mixed`: `TesteCF` / `CerteCF` / `eCF`.
   */
  environmentCase?: 'lower' | 'mixed';
  /** Casing of the service path: `pascal` (default) `ConsultaTimbre` / `ConsultaTimbreFC`, or `lower`. */
  pathCase?: 'pascal' | 'lower';
}

const MIXED_ENV: Record<DgiiEnvironment, string> = { testecf: 'TesteCF', certecf: 'CerteCF', ecf: 'eCF' };
const AMOUNT = /^\d+(?:\.\d+)?$/;

/**
 * Builds the timbre URL. Every value is percent-encoded with `encodeURIComponent` (space → `%20`,
 * `+` → `%2B`, `/` → `%2F`, `:` → `%3A`).
 *
 * - Any e-CF sent to Recepción (including 32 ≥ 250,000.00):
 *   `https://ecf.dgii.gov.do/{env}/ConsultaTimbre?RncEmisor&RncComprador&ENCF&FechaEmision&MontoTotal&FechaFirma&CodigoSeguridad`
 *   (`RncComprador` left out for types 43 and 47 and when there is no buyer RNC).
 * - Type 32 with MontoTotal < 250,000.00:
 *   `https://fc.dgii.gov.do/{env}/ConsultaTimbreFC?RncEmisor&ENCF&MontoTotal&CodigoSeguridad`.
 *
 * @example
 * qrUrl({ rncEmisor: '130000001', rncComprador: '130000002', encf: 'E310000000001', fechaEmision: '10-10-2020',
 *   montoTotal: '1000.00', fechaFirma: '10-10-2020 09:00:00', codigoSeguridad: 'm+tPLr' }, { environment: 'testecf' })
 * //=> 'https://ecf.dgii.gov.do/testecf/ConsultaTimbre?RncEmisor=130000001&RncComprador=130000002&ENCF=E310000000001&FechaEmision=10-10-2020&MontoTotal=1000.00&FechaFirma=10-10-2020%2009%3A00%3A00&CodigoSeguridad=m%2BtPLr'
 */
export function qrUrl(fields: QrFields, options: QrUrlOptions): string {
  const env = environmentSegment(options);
  const type = String(fields.tipoeCF ?? fields.encf.slice(1, 3));
  const lower = options.pathCase === 'lower';
  const info = isEcfType(type) ? ECF_TYPE_INFO[type] : undefined;
  // A type with a summary threshold (32: RD$250,000.00) below it goes to the consumption-invoice (RFCE) service.
  if (info?.summaryThreshold !== undefined && belowFcThreshold(fields.montoTotal, info.summaryThreshold)) {
    const base = trimSlash(options.fcBaseUrl ?? 'https://fc.dgii.gov.do');
    return `${base}/${env}/${lower ? 'consultatimbrefc' : 'ConsultaTimbreFC'}?${query([
      ['RncEmisor', fields.rncEmisor],
      ['ENCF', fields.encf],
      ['MontoTotal', fields.montoTotal],
      ['CodigoSeguridad', fields.codigoSeguridad],
    ])}`;
  }
  const buyer = info?.qrOmitsBuyer ? null : (fields.rncComprador ?? null);
  const base = trimSlash(options.baseUrl ?? 'https://ecf.dgii.gov.do');
  return `${base}/${env}/${lower ? 'consultatimbre' : 'ConsultaTimbre'}?${query([
    ['RncEmisor', fields.rncEmisor],
    ...(buyer ? [['RncComprador', buyer] as [string, string]] : []),
    ['ENCF', fields.encf],
    ['FechaEmision', required(fields.fechaEmision, 'fechaEmision')],
    ['MontoTotal', fields.montoTotal],
    ['FechaFirma', required(fields.fechaFirma, 'fechaFirma')],
    ['CodigoSeguridad', fields.codigoSeguridad],
  ])}`;
}

/**
 * Builds the timbre URL from a signed e-CF (root `ECF`), reading `RNCEmisor`, `RNCComprador`,
 * `eNCF`, `TipoeCF`, `FechaEmision`, `MontoTotal` (exact text), `FechaHoraFirma` and the security
 * code from its SignatureValue. A signed RFCE works too: it yields the consumption-invoice URL with
 * its `CodigoSeguridadeCF`.
 *
 * @throws EcfError `not_well_formed`, `not_signed`, `missing_field`, `unsupported_document`
 * @example
 * qrUrlFromSignedXml(signedEcf, { environment: 'ecf' }) //=> 'https://ecf.dgii.gov.do/ecf/ConsultaTimbre?RncEmisor=…'
 */
export function qrUrlFromSignedXml(signedXml: string, options: QrUrlOptions): string {
  const doc = parseDocument(signedXml);
  const root = rootName(doc);
  if (root === 'RFCE') {
    return qrUrl(
      {
        rncEmisor: requireText(doc, ['Encabezado', 'Emisor', 'RNCEmisor']),
        encf: requireText(doc, ['Encabezado', 'IdDoc', 'eNCF']),
        tipoeCF: '32',
        montoTotal: requireText(doc, ['Encabezado', 'Totales', 'MontoTotal']),
        codigoSeguridad: requireText(doc, ['Encabezado', 'CodigoSeguridadeCF']),
      },
      options,
    );
  }
  if (root !== 'ECF') {
    throw new EcfError(`Timbre URLs are for e-CF (root ECF) or RFCE documents, got <${root}>.`, { code: 'unsupported_document' });
  }
  return qrUrl(
    {
      rncEmisor: requireText(doc, ['Encabezado', 'Emisor', 'RNCEmisor']),
      rncComprador: textAt(doc, ['Encabezado', 'Comprador', 'RNCComprador']),
      encf: requireText(doc, ['Encabezado', 'IdDoc', 'eNCF']),
      tipoeCF: requireText(doc, ['Encabezado', 'IdDoc', 'TipoeCF']),
      fechaEmision: requireText(doc, ['Encabezado', 'Emisor', 'FechaEmision']),
      montoTotal: requireText(doc, ['Encabezado', 'Totales', 'MontoTotal']),
      fechaFirma: requireText(doc, ['FechaHoraFirma']),
      codigoSeguridad: securityCode(signedXml),
    },
    options,
  );
}

function environmentSegment(options: QrUrlOptions): string {
  const env = options.environment;
  if (!isDgiiEnvironment(env)) {
    throw new EcfError(`Unknown DGII environment "${String(env)}": use testecf, certecf or ecf.`, { code: 'invalid_argument' });
  }
  return options.environmentCase === 'mixed' ? MIXED_ENV[env] : env;
}

/** Compares whole pesos: exact because the registry's thresholds are whole amounts (`250000.00`). */
function belowFcThreshold(montoTotal: string, threshold: string): boolean {
  if (!AMOUNT.test(montoTotal)) {
    throw new EcfError(`MontoTotal "${montoTotal}" is not a plain decimal amount.`, { code: 'invalid_argument' });
  }
  return BigInt(montoTotal.split('.')[0]!) < BigInt(threshold.split('.')[0]!);
}

function required(value: string | null | undefined, name: string): string {
  if (value === null || value === undefined || value === '') {
    throw new EcfError(`qrUrl: ${name} is required for the ConsultaTimbre URL.`, { code: 'missing_field' });
  }
  return value;
}

function query(params: Array<[string, string]>): string {
  return params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
