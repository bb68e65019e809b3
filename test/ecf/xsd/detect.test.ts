import { describe, expect, it } from 'vitest';
import { detectSchemaId, rootElementName } from '../../../src/ecf/xsd/index.js';
import { acecf, ecf32, ecf43, semilla } from './fixtures.js';

describe('detectSchemaId', () => {
  it('reads the root element and, for ECF, TipoeCF', () => {
    expect(detectSchemaId(ecf43())).toBe('ECF-43');
    expect(detectSchemaId(ecf32())).toBe('ECF-32');
    expect(detectSchemaId(semilla())).toBe('Semilla');
    expect(detectSchemaId(acecf())).toBe('ACECF');
    for (const r of ['RFCE', 'ARECF', 'ANECF'] as const) expect(detectSchemaId(`<${r}><x/></${r}>`)).toBe(r);
    for (const t of ['31', '33', '34', '41', '44', '45', '46', '47']) {
      expect(detectSchemaId(`<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>${t}</TipoeCF></IdDoc></Encabezado></ECF>`)).toBe(`ECF-${t}`);
    }
  });

  it('skips BOM, declaration, comments, processing instructions and DOCTYPE', () => {
    const xml = '\uFEFF<?xml version="1.0"?><!-- <RFCE> --><?pi x?><!DOCTYPE ARECF [<!ENTITY a "<ANECF>">]>\n<ARECF/>';
    expect(rootElementName(xml)).toBe('ARECF');
    expect(detectSchemaId(xml)).toBe('ARECF');
  });

  it('returns null when it cannot tell', () => {
    expect(detectSchemaId('<Factura/>')).toBeNull();
    expect(detectSchemaId('<ECF><Encabezado/></ECF>')).toBeNull();
    expect(detectSchemaId('<ECF><TipoeCF>99</TipoeCF></ECF>')).toBeNull();
    expect(detectSchemaId('not xml')).toBeNull();
  });
});
