/** Lookups over what DGII has received: the decisive record of a document, voided ranges, consumed sequences. */
import { parseEncf } from '../spec/encf.js';
import { isAccepted } from './scenarios.js';
import type { EcfSubmission, RfceRecord, Store, Verdict, VoidRecord } from './store.js';

/** The record that answers for a document: an accepted one if any, else the latest resolved one. */
export function decisive<T extends { verdict: Verdict }>(records: T[]): T | undefined {
  const accepted = records.find((r) => isAccepted(r.verdict));
  if (accepted) return accepted;
  for (let i = records.length - 1; i >= 0; i--) if (records[i]!.verdict.estado !== 'En Proceso') return records[i];
  return undefined;
}

/** The accepted e-CF submission or RFCE of a document, if any. */
export function acceptedRecord(store: Store, env: string, rnc: string, encf: string): EcfSubmission | RfceRecord | undefined {
  return store.submissionsOf(env, rnc, encf).find((s) => isAccepted(s.verdict)) ?? store.rfceOf(env, rnc, encf).find((r) => isAccepted(r.verdict));
}

/** A sequence is consumed once received unless rejected with `secuenciaUtilizada` false. */
export function consumes(v: Verdict): boolean {
  return v.estado === 'En Proceso' || v.secuenciaUtilizada;
}

/** Sequence number of an e-NCF (`E310000000015` → 15); null when it is not an e-NCF. */
export function sequenceOf(encf: string): number | null {
  return parseEncf(encf, { anySeries: true })?.consecutive ?? null;
}

/** The voiding that covers an e-NCF, if any. */
export function voidingOf(voids: VoidRecord[], env: string, rnc: string, encf: string): VoidRecord | undefined {
  const seq = sequenceOf(encf);
  if (seq === null) return undefined;
  const tipo = encf.slice(1, 3);
  return voids.find((v) => v.env === env && v.rnc === rnc && v.tipo === tipo && seq >= v.desde && seq <= v.hasta);
}
