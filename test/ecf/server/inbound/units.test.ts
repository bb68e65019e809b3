import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { matchInboundPath, NOT_RECEIVED_TYPES, readXmlUpload, RECEIVED_TYPES } from '../../../../src/ecf/server/inbound/index.js';
import { parseUntrustedXml, sameAmount, scrapeText, textAt, xmlValue, XmlInputError } from '../../../../src/ecf/server/inbound/xml.js';
import { MIGRATIONS } from '../../../../src/ecf/server/storage/migrations.js';
import { createSqliteStorage } from '../../../../src/ecf/server/storage/sqlite.js';
import { newReceived } from '../storage/contract.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('readXmlUpload', () => {
  it('takes the part named xml among others, quoted or not', () => {
    const body =
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nuno\r\n--b\r\nContent-Disposition: form-data; name=XML; filename=x.xml\r\n\r\n<a>ñ</a>\r\n--b--\r\n';
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes(body))).toEqual({ fileName: 'x.xml', xml: '<a>ñ</a>' });
  });

  it('falls back to the only file part, then to the only part', () => {
    const file =
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nuno\r\n--b\r\nContent-Disposition: form-data; name="archivo"; filename="f.xml"\r\n\r\n<f/>\r\n--b--';
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes(file))?.xml).toBe('<f/>');
    const only = '--b\nContent-Disposition: form-data; name="documento"\n\n<g/>\n--b--';
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes(only))?.xml).toBe('<g/>');
    const two = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n<a/>\r\n--b\r\nContent-Disposition: form-data; name="c"\r\n\r\n<c/>\r\n--b--';
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes(two))).toBeNull();
  });

  it('finds the boundary in the body when the header lacks it or names another one', () => {
    const body = '\r\n--zz\r\nContent-Disposition: form-data; name=xml\r\n\r\n<h/>\r\n--zz--';
    expect(readXmlUpload('multipart/form-data', bytes(body))?.xml).toBe('<h/>');
    expect(readXmlUpload('multipart/form-data; boundary=otra', bytes(body))?.xml).toBe('<h/>');
    expect(readXmlUpload(null, bytes(body))?.xml).toBe('<h/>');
  });

  it('keeps the part bytes exact: inner CRLFs stay, only the delimiter line break goes', () => {
    const body = '--b\r\nContent-Disposition: form-data; name=xml\r\n\r\n<a>\r\n<b/>\r\n</a>\r\n\r\n--b--';
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes(body))?.xml).toBe('<a>\r\n<b/>\r\n</a>\r\n');
  });

  it('decodes filename* and takes a bare XML body; refuses empty and non-XML bodies', () => {
    const body = "--b\r\nContent-Disposition: form-data; name=xml; filename*=utf-8''a%C3%B1o.xml\r\n\r\n<i/>\r\n--b--";
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes(body))?.fileName).toBe('año.xml');
    expect(readXmlUpload('application/xml', bytes('\uFEFF<j/>'))).toEqual({ fileName: '', xml: '<j/>' });
    expect(readXmlUpload('text/plain', bytes('hola'))).toBeNull();
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes(''))).toBeNull();
    expect(readXmlUpload('multipart/form-data; boundary=b', bytes('--b\r\nContent-Disposition: form-data; name=xml\r\n\r\n  \r\n--b--'))).toBeNull();
  });
});

describe('untrusted XML', () => {
  it('refuses DOCTYPE and ENTITY declarations (no expansion, no external fetch)', () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><l>&b;</l>';
    expect(() => parseUntrustedXml(laughs)).toThrow(XmlInputError);
    expect(() => parseUntrustedXml('<!doctype x><x/>')).toThrow(/DOCTYPE/);
    expect(() => parseUntrustedXml('<a><b></a>')).toThrow(/bien formado/);
    expect(() => parseUntrustedXml('')).toThrow(XmlInputError);
  });

  it('reads values by path, trimmed; scrapes from broken XML', () => {
    const doc = parseUntrustedXml('<ECF><Encabezado><Emisor><RNCEmisor> 101672919 </RNCEmisor><Vacio></Vacio></Emisor></Encabezado></ECF>');
    expect(textAt(doc, ['Encabezado', 'Emisor', 'RNCEmisor'])).toBe('101672919');
    expect(textAt(doc, ['Encabezado', 'Emisor', 'Vacio'])).toBeNull();
    expect(textAt(doc, ['Encabezado', 'Comprador', 'RNCComprador'])).toBeNull();
    expect(scrapeText('<ECF><eNCF>E310000000001</eNCF><roto', 'eNCF')).toBe('E310000000001');
    expect(scrapeText('<ECF>', 'eNCF')).toBeNull();
  });

  it('reads decision values from the tree, never from comments, CDATA or processing instructions (issue 13, finding 10)', () => {
    const decoys = [
      '<!--<RNCComprador>999999999</RNCComprador>-->',
      '<![CDATA[<RNCComprador>999999999</RNCComprador>]]>',
      '<?pi <RNCComprador>999999999</RNCComprador>?>',
    ];
    for (const decoy of decoys) {
      const xml = `<ECF><Encabezado><Emisor><RazonSocialEmisor>${decoy}</RazonSocialEmisor></Emisor>${decoy.startsWith('<![') ? '' : decoy}<Comprador>${decoy.startsWith('<![') ? '' : decoy}<RNCComprador>130000001</RNCComprador></Comprador></Encabezado></ECF>`;
      expect(xmlValue(xml, ['Encabezado', 'Comprador', 'RNCComprador']), decoy).toBe('130000001');
      // A document that does not parse is still read past the decoys (it only addresses the acknowledgment).
      expect(scrapeText(`${xml}<roto`, 'RNCComprador'), decoy).toBe('130000001');
    }
    // A namespaced element of the same local name is not the e-CF's element.
    expect(xmlValue('<ECF><x:RNCComprador xmlns:x="urn:x">999999999</x:RNCComprador><RNCComprador>130000001</RNCComprador></ECF>', ['RNCComprador'])).toBe(
      '130000001',
    );
    expect(xmlValue('<ECF><roto', ['RNCComprador'])).toBeNull();
  });

  it('compares amounts exactly by value', () => {
    expect(sameAmount('236', '236.00')).toBe(true);
    expect(sameAmount('0236.50', '236.5')).toBe(true);
    expect(sameAmount('0.10', '0.1')).toBe(true);
    expect(sameAmount('236.01', '236.00')).toBe(false);
    expect(sameAmount('9007199254740993.01', '9007199254740993.02')).toBe(false);
    expect(sameAmount('1e3', '1000')).toBe(false);
    expect(sameAmount('', '0')).toBe(false);
  });
});

describe('inbound paths and types', () => {
  it('matches the four services case-insensitively, at the root and under a tenant prefix', () => {
    expect(matchInboundPath('/fe/recepcion/api/ecf')).toEqual({ service: 'recepcion', method: 'POST', rnc: null });
    expect(matchInboundPath('/T/131880738/FE/AprobacionComercial/API/ECF/')).toEqual({ service: 'aprobacioncomercial', method: 'POST', rnc: '131880738' });
    expect(matchInboundPath('/fe/autenticacion/api/semilla')).toMatchObject({ service: 'semilla', method: 'GET' });
    expect(matchInboundPath('/fe/autenticacion/api/ValidacionCertificado')).toMatchObject({ service: 'validacioncertificado' });
    for (const p of ['/fe/recepcion/api/ecf/x', '/api/fe/recepcion/api/ecf', '/t//fe/recepcion/api/ecf', '/fe/recepcion/ecf', '/t/1/2/fe/recepcion/api/ecf']) {
      expect(matchInboundPath(p)).toBeNull();
    }
  });

  it('receives 31, 33, 34 and 44 only', () => {
    expect([...RECEIVED_TYPES]).toEqual(['31', '33', '34', '44']);
    expect([...NOT_RECEIVED_TYPES].sort()).toEqual(['32', '41', '43', '45', '46', '47']);
  });
});

describe('storage migration 2 on an existing database', () => {
  it('upgrades a version-1 SQLite file in place, keeping its data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ecf-inbound-'));
    try {
      const file = join(dir, 'ecf.sqlite');
      // A database as version 1 left it.
      const raw = new Database(file);
      raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      for (const stmt of MIGRATIONS[0]!.statements('sqlite')) raw.exec(stmt);
      raw.prepare('INSERT INTO schema_migrations VALUES (1, ?, 0)').run(MIGRATIONS[0]!.name);
      raw.prepare("INSERT INTO issuers (rnc, name, profile, signing_mode, created_at) VALUES ('131880738', 'Antes', '{}', 'provider', 1)").run();
      raw.close();

      const s = createSqliteStorage({ file });
      await s.migrate();
      const issuer = await s.getIssuerByRnc('131880738');
      expect(issuer?.name).toBe('Antes');
      expect(await s.addReceivedDocument(issuer!.id, newReceived())).not.toBeNull();
      await s.close();
      const check = new Database(file, { readonly: true });
      expect(check.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual(
        [...MIGRATIONS].sort((a, b) => a.version - b.version).map((m) => ({ version: m.version })),
      );
      check.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('storage migration 3 on an existing database (issue 13 finding 1)', () => {
  it('keeps the first approval per document and buyer, then refuses a second one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ecf-inbound-'));
    try {
      const file = join(dir, 'ecf.sqlite');
      // A database as version 2 left it, with repeated approvals of one buyer.
      const raw = new Database(file);
      raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      for (const m of MIGRATIONS.slice(0, 2)) {
        for (const stmt of m.statements('sqlite')) raw.exec(stmt);
        raw.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.version, m.name);
      }
      raw.prepare("INSERT INTO issuers (rnc, name, profile, signing_mode, created_at) VALUES ('131880738', 'Antes', '{}', 'provider', 1)").run();
      raw
        .prepare(`INSERT INTO documents (issuer_id, tipo, encf, consecutive, status, source, unsigned_xml, summary, issued_at, issued_on,
        total_amount, total_itbis, transmission, created_at, updated_at)
        VALUES (1, '31', 'E310000000001', 1, 'accepted_authority', 'json', '<ECF/>', 0, '01-04-2026', '2026-04-01', '1.00', '0.00', 'sent', 1, 1)`)
        .run();
      const add = raw.prepare('INSERT INTO document_approvals (document_id, estado, motivo, rnc_comprador, acecf_xml, received_at) VALUES (1, ?, ?, ?, ?, ?)');
      add.run(2, 'Precio', '101672919', '<ACECF>1</ACECF>', 10);
      add.run(1, null, '101672919', '<ACECF>2</ACECF>', 20);
      add.run(1, null, '132000001', '<ACECF>3</ACECF>', 30);
      raw.close();

      const s = createSqliteStorage({ file });
      await s.migrate();
      expect((await s.getDocumentApprovals(1)).map((a) => [a.rncComprador, a.estado, a.acecfXml])).toEqual([
        ['101672919', 2, '<ACECF>1</ACECF>'],
        ['132000001', 1, '<ACECF>3</ACECF>'],
      ]);
      const again = await s.addDocumentApproval(1, { estado: 1, motivo: null, rncComprador: '101672919', acecfXml: '<ACECF>4</ACECF>', receivedAt: 40 });
      expect(again).toMatchObject({ created: false, approval: { estado: 2, acecfXml: '<ACECF>1</ACECF>' } });
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
