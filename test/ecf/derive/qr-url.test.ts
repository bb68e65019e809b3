import { describe, expect, it } from 'vitest';
import { qrUrl, qrUrlFromSignedXml, type QrFields } from '../../../src/ecf/derive/qr-url.js';
import { securityCode } from '../../../src/ecf/derive/security-code.js';
import { readP12 } from '../../../src/shared/xmldsig/p12.js';
import { p12Signer } from '../../../src/shared/xmldsig/signer.js';
import { signEcf, signXml } from '../../../src/ecf/sign/sign-xml.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { compactEcf31 } from '../sign/fixtures.js';

const base: QrFields = {
  rncEmisor: '130000001',
  rncComprador: '130000002',
  encf: 'E310000000001',
  fechaEmision: '10-10-2020',
  montoTotal: '1000.00',
  fechaFirma: '10-10-2020 09:00:00',
  codigoSeguridad: 'dcp79q',
};
const signer = () => p12Signer(readP12(modernP12().p12, TEST_PASSWORD));

describe('qrUrl', () => {
  it('builds the ConsultaTimbre URL with 7 parameters in DGII order', () => {
    expect(qrUrl(base, { environment: 'testecf' })).toBe(
      'https://ecf.dgii.gov.do/testecf/ConsultaTimbre?RncEmisor=130000001&RncComprador=130000002&ENCF=E310000000001' +
        '&FechaEmision=10-10-2020&MontoTotal=1000.00&FechaFirma=10-10-2020%2009%3A00%3A00&CodigoSeguridad=dcp79q',
    );
  });

  it('percent-encodes a security code with + and /', () => {
    const url = qrUrl({ ...base, codigoSeguridad: 'm+tP/r' }, { environment: 'ecf' });
    expect(url.endsWith('&CodigoSeguridad=m%2BtP%2Fr')).toBe(true);
    expect(new URL(url).searchParams.get('CodigoSeguridad')).toBe('m+tP/r');
  });

  it('omits RncComprador for types 43 and 47 and when there is no buyer RNC', () => {
    expect(qrUrl({ ...base, encf: 'E430000000001' }, { environment: 'ecf' })).not.toContain('RncComprador');
    expect(qrUrl({ ...base, encf: 'E470000000001' }, { environment: 'ecf' })).not.toContain('RncComprador');
    expect(qrUrl({ ...base, encf: 'E310000000001', tipoeCF: 47 }, { environment: 'ecf' })).not.toContain('RncComprador');
    expect(qrUrl({ ...base, rncComprador: null }, { environment: 'ecf' })).not.toContain('RncComprador');
    expect(qrUrl({ ...base, encf: 'E440000000001' }, { environment: 'ecf' })).toContain('RncComprador=130000002');
  });

  it('type 32 below 250,000.00 uses ConsultaTimbreFC with 4 parameters', () => {
    expect(qrUrl({ ...base, encf: 'E320000000064', montoTotal: '6225.09', codigoSeguridad: 'uabnyh' }, { environment: 'testecf' })).toBe(
      'https://fc.dgii.gov.do/testecf/ConsultaTimbreFC?RncEmisor=130000001&ENCF=E320000000064&MontoTotal=6225.09&CodigoSeguridad=uabnyh',
    );
    expect(qrUrl({ ...base, encf: 'E320000000064', montoTotal: '249999.99' }, { environment: 'ecf' })).toContain('/ConsultaTimbreFC?');
  });

  it('type 32 at or above 250,000.00 uses ConsultaTimbre', () => {
    for (const montoTotal of ['250000.00', '250000', '250000.01', '1000000.00']) {
      const url = qrUrl({ ...base, encf: 'E320000000064', montoTotal }, { environment: 'ecf' });
      expect(url).toContain('https://ecf.dgii.gov.do/ecf/ConsultaTimbre?');
      expect(url).toContain(`MontoTotal=${montoTotal}&`);
    }
  });

  it('environment and path casing are options (default lower-case env, PascalCase path)', () => {
    expect(qrUrl(base, { environment: 'certecf' })).toMatch(/^https:\/\/ecf\.dgii\.gov\.do\/certecf\/ConsultaTimbre\?/);
    expect(qrUrl(base, { environment: 'certecf', environmentCase: 'mixed' })).toMatch(/\/CerteCF\/ConsultaTimbre\?/);
    expect(qrUrl(base, { environment: 'ecf', environmentCase: 'mixed', pathCase: 'lower' })).toMatch(/\/eCF\/consultatimbre\?/);
    const fc = { ...base, encf: 'E320000000001', montoTotal: '10.00' };
    expect(qrUrl(fc, { environment: 'testecf', environmentCase: 'mixed', pathCase: 'lower' })).toMatch(
      /^https:\/\/fc\.dgii\.gov\.do\/TesteCF\/consultatimbrefc\?/,
    );
    expect(qrUrl(base, { environment: 'ecf', baseUrl: 'http://localhost:8080/' })).toMatch(/^http:\/\/localhost:8080\/ecf\/ConsultaTimbre\?/);
    expect(qrUrl(fc, { environment: 'ecf', fcBaseUrl: 'http://127.0.0.1:9' })).toMatch(/^http:\/\/127\.0\.0\.1:9\/ecf\/ConsultaTimbreFC\?/);
  });

  it('rejects unknown environments and malformed amounts', () => {
    expect(() => qrUrl(base, { environment: 'prod' as never })).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(() => qrUrl({ ...base, encf: 'E320000000001', montoTotal: '1,000.00' }, { environment: 'ecf' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => qrUrl({ ...base, fechaFirma: null }, { environment: 'ecf' })).toThrow(expect.objectContaining({ code: 'missing_field' }));
  });
});

describe('qrUrlFromSignedXml', () => {
  it('reads the fields of a signed e-CF, MontoTotal as written and FechaFirma = FechaHoraFirma', async () => {
    const xml = compactEcf31.replace('<MontoTotal>1180.00</MontoTotal>', '<MontoTotal>1180.5</MontoTotal>');
    const signed = await signEcf(xml, signer(), () => new Date('2026-01-10T16:07:08Z'));
    const url = new URL(qrUrlFromSignedXml(signed, { environment: 'testecf' }));
    expect(url.origin + url.pathname).toBe('https://ecf.dgii.gov.do/testecf/ConsultaTimbre');
    expect([...url.searchParams.entries()]).toEqual([
      ['RncEmisor', '130000001'],
      ['RncComprador', '131880738'],
      ['ENCF', 'E310000000001'],
      ['FechaEmision', '10-01-2026'],
      ['MontoTotal', '1180.5'],
      ['FechaFirma', '10-01-2026 12:07:08'],
      ['CodigoSeguridad', securityCode(signed)],
    ]);
  });

  it('percent-encodes a real security code containing + or /', async () => {
    let signed = '';
    for (let i = 0; i < 400 && !/[+/]/.test(signed && securityCode(signed)); i++) {
      signed = await signEcf(compactEcf31, signer(), () => new Date(Date.UTC(2026, 0, 10, 12, 0, i)));
    }
    const code = securityCode(signed);
    expect(code).toMatch(/[+/]/);
    const url = qrUrlFromSignedXml(signed, { environment: 'ecf' });
    expect(url.endsWith(`&CodigoSeguridad=${code.replace(/\+/g, '%2B').replace(/\//g, '%2F')}`)).toBe(true);
    expect(url).not.toMatch(/CodigoSeguridad=[^&]*[+/]/);
  });

  it('type 32 below the threshold gives the FC URL', async () => {
    const xml = compactEcf31.replace('<TipoeCF>31</TipoeCF><eNCF>E310000000001</eNCF>', '<TipoeCF>32</TipoeCF><eNCF>E320000000001</eNCF>');
    const signed = await signEcf(xml, signer(), () => new Date('2026-01-10T12:00:00Z'));
    expect(qrUrlFromSignedXml(signed, { environment: 'ecf' })).toBe(
      `https://fc.dgii.gov.do/ecf/ConsultaTimbreFC?RncEmisor=130000001&ENCF=E320000000001&MontoTotal=1180.00&CodigoSeguridad=${encodeURIComponent(securityCode(signed))}`,
    );
  });

  it('a signed RFCE gives the FC URL with its CodigoSeguridadeCF', async () => {
    const rfce =
      '<?xml version="1.0" encoding="utf-8"?><RFCE><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000064</eNCF></IdDoc>' +
      '<Emisor><RNCEmisor>131880738</RNCEmisor><FechaEmision>10-01-2026</FechaEmision></Emisor><Totales><MontoTotal>6225.09</MontoTotal></Totales>' +
      '<CodigoSeguridadeCF>ab+/cd</CodigoSeguridadeCF></Encabezado></RFCE>';
    const signed = await signXml(rfce, signer());
    expect(qrUrlFromSignedXml(signed, { environment: 'testecf' })).toBe(
      'https://fc.dgii.gov.do/testecf/ConsultaTimbreFC?RncEmisor=131880738&ENCF=E320000000064&MontoTotal=6225.09&CodigoSeguridad=ab%2B%2Fcd',
    );
  });

  it('missing fields and other roots are reported', async () => {
    const noStamp = await signXml(compactEcf31, signer());
    expect(() => qrUrlFromSignedXml(noStamp, { environment: 'ecf' })).toThrow(expect.objectContaining({ code: 'missing_field' }));
    expect(() => qrUrlFromSignedXml('<ARECF/>', { environment: 'ecf' })).toThrow(expect.objectContaining({ code: 'unsupported_document' }));
  });
});
