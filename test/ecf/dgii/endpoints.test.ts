import { describe, expect, it } from 'vitest';
import { dgiiEndpoints, withQuery } from '../../../src/ecf/dgii/endpoints.js';

describe('dgiiEndpoints', () => {
  it('uses DGII hosts with the environment segment, and statusecf without one', () => {
    for (const env of ['testecf', 'certecf', 'ecf'] as const) {
      const e = dgiiEndpoints(env);
      expect(e.semilla).toBe(`https://ecf.dgii.gov.do/${env}/autenticacion/api/autenticacion/semilla`);
      expect(e.validarSemilla).toBe(`https://ecf.dgii.gov.do/${env}/autenticacion/api/autenticacion/validarsemilla`);
      expect(e.recepcion).toBe(`https://ecf.dgii.gov.do/${env}/recepcion/api/facturaselectronicas`);
      expect(e.recepcionFc).toBe(`https://fc.dgii.gov.do/${env}/recepcionfc/api/recepcion/ecf`);
      expect(e.consultaRfce).toBe(`https://fc.dgii.gov.do/${env}/consultarfce/api/consultas/consulta`);
      expect(e.consultaTimbreFc).toBe(`https://fc.dgii.gov.do/${env}/consultatimbrefc`);
      expect(e.consultaResultado).toBe(`https://ecf.dgii.gov.do/${env}/consultaresultado/api/consultas/estado`);
      expect(e.consultaEstado).toBe(`https://ecf.dgii.gov.do/${env}/consultaestado/api/consultas/estado`);
      expect(e.consultaTrackIds).toBe(`https://ecf.dgii.gov.do/${env}/consultatrackids/api/trackids/consulta`);
      expect(e.aprobacionComercial).toBe(`https://ecf.dgii.gov.do/${env}/aprobacioncomercial/api/aprobacioncomercial`);
      expect(e.anulacionRangos).toBe(`https://ecf.dgii.gov.do/${env}/anulacionrangos/api/operaciones/anularrango`);
      expect(e.directorioListado).toBe(`https://ecf.dgii.gov.do/${env}/consultadirectorio/api/consultas/listado`);
      expect(e.directorioPorRnc).toBe(`https://ecf.dgii.gov.do/${env}/consultadirectorio/api/consultas/obtenerdirectorioporrnc`);
      expect(e.estatusServicios).toBe('https://statusecf.dgii.gov.do/api/estatusservicios/obtenerestatus');
    }
  });

  it('maps every host to a custom base, keeping the paths', () => {
    const e = dgiiEndpoints('certecf', 'http://127.0.0.1:9090/');
    expect(e.recepcion).toBe('http://127.0.0.1:9090/certecf/recepcion/api/facturaselectronicas');
    expect(e.recepcionFc).toBe('http://127.0.0.1:9090/certecf/recepcionfc/api/recepcion/ecf');
    expect(e.estatusServicios).toBe('http://127.0.0.1:9090/api/estatusservicios/obtenerestatus');
    expect(dgiiEndpoints('ecf', 'https://proxy.example.do/dgii').semilla).toBe('https://proxy.example.do/dgii/ecf/autenticacion/api/autenticacion/semilla');
  });

  it('refuses unknown environments and unusable base URLs', () => {
    expect(() => dgiiEndpoints('prod' as never)).toThrow(/Unknown DGII environment/);
    expect(() => dgiiEndpoints('ecf', 'ftp://x')).toThrow(/http or https/);
    expect(() => dgiiEndpoints('ecf', 'not a url')).toThrow(/not a valid base URL/);
    expect(() => dgiiEndpoints('ecf', 'http://x/?a=1')).toThrow(/query/);
  });
});

describe('withQuery', () => {
  it('percent-encodes + and / of a security code and every other value', () => {
    expect(withQuery('http://h/p', { RNC_Emisor: '130000001', ENCF: 'E320000000001', Cod_Seguridad_eCF: 'a+b/C1' })).toBe(
      'http://h/p?RNC_Emisor=130000001&ENCF=E320000000001&Cod_Seguridad_eCF=a%2Bb%2FC1',
    );
    expect(withQuery('http://h/p', { rnccomprador: null, x: 'a b&c=d' })).toBe('http://h/p?rnccomprador=&x=a%20b%26c%3Dd');
  });
});
