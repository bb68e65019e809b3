/**
 * Dominican time: America/Santo_Domingo is UTC−4 all year (no daylight saving), so dates are computed with
 * a fixed offset, never with the host's time zone. Thin values over the product-neutral `fixed-offset.ts`.
 */
import { formatWallClock, fromWallClock, wallClock, type WallClock } from '../shared/time/fixed-offset.js';

/** America/Santo_Domingo in minutes east of UTC (UTC−4, all year). */
export const DO_OFFSET_MINUTES = -240;

/** `dd-MM-yyyy` of an instant in Dominican time. */
export function formatDateDO(instant: Date): string {
  return formatWallClock(instant, DO_OFFSET_MINUTES, 'dd-MM-yyyy');
}

/** `dd-MM-yyyy HH:mm:ss` of an instant in Dominican time (GMT−4), as `FechaHoraFirma` requires. */
export function formatDateTimeDO(instant: Date): string {
  return formatWallClock(instant, DO_OFFSET_MINUTES, 'dd-MM-yyyy HH:mm:ss');
}

/** `2026-04-01T10:00:00.1230000-04:00`: xs:dateTime in Dominican time with .NET ticks precision, as DGII writes it. */
export function formatTicksDO(instant: Date): string {
  return formatWallClock(instant, DO_OFFSET_MINUTES, 'yyyy-MM-ddTHH:mm:ss.SSS0000XXX');
}

/** The wall clock of an instant in Dominican time. */
export function wallClockDO(instant: Date): Required<WallClock> {
  return wallClock(instant, DO_OFFSET_MINUTES);
}

/** The instant a Dominican wall-clock reading denotes. */
export function fromWallClockDO(w: WallClock): Date {
  return fromWallClock(w, DO_OFFSET_MINUTES);
}
