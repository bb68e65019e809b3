/**
 * Amounts in Spanish words for printed documents ("setecientos dieciséis mil setecientos pesos"), product-neutral:
 * the product names its currency. Exact: the amount is a decimal (bigint), rounded half-to-even to cents, never a
 * float. Long scale as Spanish uses it: mil, millón (10^6), mil millones (10^9), billón (10^12).
 */
import { roundHalfEven, SCALE, type Dec } from '../money/decimal.js';
import { EcfError } from '../errors/ecf-error.js';

/** How a currency is named: `peso` / `pesos`, and its hundredths (`centavo` / `centavos`). */
export interface CurrencyWords {
  singular: string;
  plural: string;
  centSingular: string;
  centPlural: string;
  /** Appended after the amount (e.g. `M/CTE`). */
  suffix?: string;
}

const UNITS = ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'];
const TEENS = ['diez', 'once', 'doce', 'trece', 'catorce', 'quince', 'dieciséis', 'diecisiete', 'dieciocho', 'diecinueve'];
const TWENTIES = ['veinte', 'veintiuno', 'veintidós', 'veintitrés', 'veinticuatro', 'veinticinco', 'veintiséis', 'veintisiete', 'veintiocho', 'veintinueve'];
const TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const HUNDREDS = ['', 'ciento', 'doscientos', 'trescientos', 'cuatrocientos', 'quinientos', 'seiscientos', 'setecientos', 'ochocientos', 'novecientos'];

function below100(n: number): string {
  if (n < 10) return UNITS[n]!;
  if (n < 20) return TEENS[n - 10]!;
  if (n < 30) return TWENTIES[n - 20]!;
  const u = n % 10;
  return u === 0 ? TENS[Math.floor(n / 10)]! : `${TENS[Math.floor(n / 10)]} y ${UNITS[u]}`;
}

function below1000(n: number): string {
  if (n === 100) return 'cien';
  const h = Math.floor(n / 100);
  const r = n % 100;
  if (h === 0) return below100(r);
  return r === 0 ? HUNDREDS[h]! : `${HUNDREDS[h]} ${below100(r)}`;
}

/** "uno" before a noun or a scale word: "un", "veintiún" ("veintiún mil", "treinta y un pesos"). */
function apocope(words: string): string {
  if (words.endsWith('veintiuno')) return `${words.slice(0, -'veintiuno'.length)}veintiún`;
  if (words === 'uno' || words.endsWith(' uno')) return `${words.slice(0, -3)}un`;
  return words;
}

const THOUSAND = 1000n;
const MILLION = 1_000_000n;
const BILLION = 1_000_000_000_000n;

/** Words of a whole number below 10^18 (masculine, "uno" at the end kept: `cardinal(21n)` → `veintiuno`). */
export function cardinal(n: bigint): string {
  if (n < 0n) return `menos ${cardinal(-n)}`;
  if (n >= BILLION * MILLION) throw new EcfError('cardinal: numbers from 10^18 on have no words here.', { code: 'invalid_argument' });
  if (n < THOUSAND) return below1000(Number(n));
  const [scale, one, many] = n >= BILLION ? [BILLION, 'un billón', 'billones'] : n >= MILLION ? [MILLION, 'un millón', 'millones'] : [THOUSAND, 'mil', 'mil'];
  const head = n / scale;
  const rest = n % scale;
  const lead = head === 1n ? one : `${apocope(cardinal(head))} ${many}`;
  return rest === 0n ? lead : `${lead} ${cardinal(rest)}`;
}

/**
 * An amount in words with its currency: `amountInWords(716700.5, PESOS)` → `setecientos dieciséis mil setecientos
 * pesos con cincuenta centavos`. "de" before the currency after a round millón/billón ("un millón de pesos").
 */
export function amountInWords(amount: Dec, currency: CurrencyWords): string {
  const cents = roundHalfEven(amount, 2);
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  const unit = 10n ** BigInt(SCALE);
  const whole = abs / unit;
  const hundredths = (abs % unit) / 10n ** BigInt(SCALE - 2);
  const words = cardinal(whole);
  const noun = whole === 1n ? currency.singular : currency.plural;
  const de = /(?:millón|millones|billón|billones)$/.test(words) ? ' de' : '';
  let out = `${neg ? 'menos ' : ''}${apocope(words)}${de} ${noun}`;
  if (hundredths > 0n) out += ` con ${apocope(cardinal(hundredths))} ${hundredths === 1n ? currency.centSingular : currency.centPlural}`;
  return currency.suffix ? `${out} ${currency.suffix}` : out;
}
