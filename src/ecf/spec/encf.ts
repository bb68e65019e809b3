/**
 * The e-NCF (número de comprobante fiscal electrónico) as one fact: its shape, how it is composed from a
 * type and a consecutive, how it is read back, and the largest consecutive (DGII DT: `E` + type (2 digits) +
 * sequence (10 digits), 13 characters). Pure; every module that builds or reads an e-NCF uses these.
 */

/** Largest consecutive: the 10 digits of an e-NCF sequence. */
export const MAX_CONSECUTIVE = 9_999_999_999;

/** An electronic e-NCF: `E` + type (2 digits) + consecutive (10 digits). */
export const ENCF_PATTERN = /^E\d{12}$/;

/** Any series letter + 12 digits: the shape DGII file names and receptors accept (series other than `E`). */
export const ANY_SERIES_ENCF_PATTERN = /^[A-Z]\d{12}$/;

const PARTS = /^([A-Z])(\d{2})(\d{10})$/;

/** The parts of an e-NCF. */
export interface EncfParts {
  /** Series letter (`E` for electronic comprobantes). */
  series: string;
  /** The two-digit type code as written (not checked against the known types). */
  tipo: string;
  /** The consecutive, 1 … {@link MAX_CONSECUTIVE} (0 when the sequence digits are all zeros). */
  consecutive: number;
}

/**
 * Composes the 13-character e-NCF of a consecutive: `E` + type + 10 digits.
 *
 * @example
 * composeEncf('31', 15) //=> 'E310000000015'
 */
export function composeEncf(tipo: string, consecutive: number): string {
  return `E${tipo}${String(consecutive).padStart(10, '0')}`;
}

/**
 * Reads an e-NCF into its parts; null when it does not have the shape. By default only the electronic
 * series `E` is accepted; `{ anySeries: true }` accepts any capital series letter.
 *
 * @example
 * parseEncf('E310000000015') //=> { series: 'E', tipo: '31', consecutive: 15 }
 * parseEncf('B0100000001') //=> null
 */
export function parseEncf(s: string, options: { anySeries?: boolean } = {}): EncfParts | null {
  const m = PARTS.exec(s);
  if (!m || (!options.anySeries && m[1] !== 'E')) return null;
  return { series: m[1]!, tipo: m[2]!, consecutive: Number(m[3]) };
}
