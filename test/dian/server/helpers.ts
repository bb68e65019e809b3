/**
 * What the DIAN server's tests share: the PostgreSQL test database (a private schema per storage, dropped
 * afterwards) and a company profile.
 */
import pg from 'pg';
import type { DianCompany } from '../../../src/dian/index.js';

/** The test database (trust auth on this machine); override with DATABASE_URL. */
export const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUN = `dian_test_${process.pid}_${Date.now().toString(36)}`;
let counter = 0;

/** A fresh schema name for this run. */
export function newSchema(): string {
  return `${RUN}_${++counter}`;
}

export async function dropSchema(name: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  } finally {
    await c.end();
  }
}

export const PROFILE: DianCompany = {
  dv: '8',
  name: 'Ferretería Ejemplo Andina S.A.S.',
  organization_type_code: '1',
  identification_type_code: '31',
  regime_type_code: '48',
  liability_type_code: 'O-13',
  tax_code: '01',
  municipality_code: '11001',
  address: 'Carrera 13 # 45-20',
  country_code: 'CO',
  phone: '6015550142',
  email: 'facturacion@ejemplo.example',
};
