/** shared/pdf/words.ts: Spanish cardinals and amounts in words (apocope, "de" after round millions, cents). */
import { describe, expect, it } from 'vitest';
import { parseDec, type Dec } from '../../../src/shared/money/decimal.js';
import { amountInWords, cardinal, type CurrencyWords } from '../../../src/shared/pdf/words.js';

const PESOS: CurrencyWords = { singular: 'peso', plural: 'pesos', centSingular: 'centavo', centPlural: 'centavos', suffix: 'M/CTE' };
const d = (t: string) => parseDec(t) as Dec;

describe('cardinal', () => {
  it.each([
    [0n, 'cero'],
    [1n, 'uno'],
    [15n, 'quince'],
    [16n, 'dieciséis'],
    [21n, 'veintiuno'],
    [22n, 'veintidós'],
    [30n, 'treinta'],
    [31n, 'treinta y uno'],
    [100n, 'cien'],
    [101n, 'ciento uno'],
    [500n, 'quinientos'],
    [999n, 'novecientos noventa y nueve'],
    [1000n, 'mil'],
    [1001n, 'mil uno'],
    [21000n, 'veintiún mil'],
    [101000n, 'ciento un mil'],
    [716700n, 'setecientos dieciséis mil setecientos'],
    [1_000_000n, 'un millón'],
    [2_500_000n, 'dos millones quinientos mil'],
    [21_000_000n, 'veintiún millones'],
    [1_500_000_000n, 'mil quinientos millones'],
    [1_000_000_000_000n, 'un billón'],
    [3_000_000_000_001n, 'tres billones uno'],
  ])('%s → %s', (n, words) => {
    expect(cardinal(n)).toBe(words);
  });

  it('refuses numbers from 10^18 on', () => {
    expect(() => cardinal(10n ** 18n)).toThrow(/10\^18/);
  });
});

describe('amountInWords', () => {
  it('names the currency, with apocope and cents', () => {
    expect(amountInWords(d('716700'), PESOS)).toBe('setecientos dieciséis mil setecientos pesos M/CTE');
    expect(amountInWords(d('1'), PESOS)).toBe('un peso M/CTE');
    expect(amountInWords(d('21.01'), PESOS)).toBe('veintiún pesos con un centavo M/CTE');
    expect(amountInWords(d('0.5'), PESOS)).toBe('cero pesos con cincuenta centavos M/CTE');
  });

  it('writes "de" after a round million or billion only', () => {
    expect(amountInWords(d('1000000'), PESOS)).toBe('un millón de pesos M/CTE');
    expect(amountInWords(d('3000000000000'), PESOS)).toBe('tres billones de pesos M/CTE');
    expect(amountInWords(d('1000001'), PESOS)).toBe('un millón un pesos M/CTE');
  });

  it('rounds the cents half-to-even, exactly', () => {
    expect(amountInWords(d('10.125'), PESOS)).toBe('diez pesos con doce centavos M/CTE');
    expect(amountInWords(d('10.135'), PESOS)).toBe('diez pesos con catorce centavos M/CTE');
    expect(amountInWords(d('-2'), { ...PESOS, suffix: undefined } as CurrencyWords)).toBe('menos dos pesos');
  });
});
