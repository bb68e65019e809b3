/**
 * Number and date formatting for the printed representation of e-CF. Numbers use the Dominican convention
 * (comma thousands separator, point decimal separator: `1,234.50`), which is what the product-neutral
 * `numbers.ts` writes; dates are Dominican time (fixed UTC−4, `time.ts`).
 */
import { fromWallClockDO } from '../time.js';

export { dec, formatDec, formatMoney, formatNumber, formatRate } from '../../shared/pdf/numbers.js';

/**
 * `FechaHoraFirma` (`dd-MM-yyyy HH:mm:ss`, GMT-4) as the instant it denotes, for the PDF's creation and
 * modification dates. Null when the text is not in that form.
 */
export function signingInstant(text: string | undefined): Date | null {
  const m = text ? /^(\d{2})-(\d{2})-(\d{4}) (\d{1,2}):(\d{1,2}):(\d{1,2})$/.exec(text.trim()) : null;
  if (!m) return null;
  const [, d, mo, y, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const t = fromWallClockDO({ year: y, month: mo, day: d, hour: h, minute: mi, second: s });
  return Number.isNaN(t.getTime()) ? null : t;
}
