/**
 * Dominican time: America/Santo_Domingo is UTC−4 all year (no daylight saving), so dates are computed with
 * a fixed offset, never with the host's time zone.
 */
const OFFSET_MS = -4 * 60 * 60 * 1000;

function parts(instant: Date): { d: string; m: string; y: string; hh: string; mi: string; ss: string } {
  const t = new Date(instant.getTime() + OFFSET_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return { d: p(t.getUTCDate()), m: p(t.getUTCMonth() + 1), y: String(t.getUTCFullYear()), hh: p(t.getUTCHours()), mi: p(t.getUTCMinutes()), ss: p(t.getUTCSeconds()) };
}

/** `dd-MM-yyyy` of an instant in Dominican time. */
export function formatDateDO(instant: Date): string {
  const p = parts(instant);
  return `${p.d}-${p.m}-${p.y}`;
}

/** `dd-MM-yyyy HH:mm:ss` of an instant in Dominican time (GMT−4), as `FechaHoraFirma` requires. */
export function formatDateTimeDO(instant: Date): string {
  const p = parts(instant);
  return `${p.d}-${p.m}-${p.y} ${p.hh}:${p.mi}:${p.ss}`;
}
