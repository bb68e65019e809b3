/** DGII date-times are written in GMT-4 (Dominican Republic, no daylight saving), whatever the host's zone. */
const GMT_MINUS_4_MS = -4 * 3_600_000;

/**
 * Formats an instant as DGII's `dd-MM-yyyy HH:mm:ss` in GMT-4 (fixed offset, 24-hour clock), the
 * format of `FechaHoraFirma` and the other e-CF date-times (Formato e-CF §G).
 *
 * @example
 * formatDgiiDateTime(new Date('2026-01-01T03:30:00Z')) //=> '31-12-2025 23:30:00'
 */
export function formatDgiiDateTime(instant: Date): string {
  const t = new Date(instant.getTime() + GMT_MINUS_4_MS);
  if (Number.isNaN(t.getTime())) throw new RangeError('formatDgiiDateTime: invalid date');
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${p(t.getUTCDate())}-${p(t.getUTCMonth() + 1)}-${String(t.getUTCFullYear()).padStart(4, '0')} ` +
    `${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(t.getUTCSeconds())}`
  );
}
