/**
 * Wall-clock time at a fixed UTC offset (a zone without daylight saving, or a protocol that states one
 * offset all year). The offset is a parameter in minutes east of UTC (−240 for UTC−4, −300 for UTC−5), so the
 * host's time zone is never consulted. Pure: no clock, no environment.
 */

/** Calendar fields of an instant as read on a wall clock at a fixed offset. `month` is 1–12. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond?: number;
}

const MINUTE_MS = 60_000;

/** The wall clock at `offsetMinutes` (minutes east of UTC) of `instant`. */
export function wallClock(instant: Date, offsetMinutes: number): Required<WallClock> {
  const t = new Date(instant.getTime() + offsetMinutes * MINUTE_MS);
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
    millisecond: t.getUTCMilliseconds(),
  };
}

/**
 * The instant a wall-clock reading at `offsetMinutes` denotes. Out-of-range fields roll over as `Date.UTC`
 * rolls them (callers that need strict calendar checks do them first); an invalid reading gives an invalid Date.
 */
export function fromWallClock(w: WallClock, offsetMinutes: number): Date {
  return new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond ?? 0) - offsetMinutes * MINUTE_MS);
}

/** `±HH:MM` of an offset (`-240` → `-04:00`, `0` → `+00:00`). */
export function offsetSuffix(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${sign}${p(Math.floor(abs / 60))}:${p(abs % 60)}`;
}

const TOKENS = /yyyy|MM|dd|HH|mm|ss|SSS|XXX/g;

/**
 * `instant` at `offsetMinutes`, written with `pattern`: `yyyy` year, `MM` month, `dd` day, `HH` hour (00–23),
 * `mm` minutes, `ss` seconds, `SSS` milliseconds (all zero-padded), `XXX` the offset (`-04:00`). Any other
 * character is copied as is.
 *
 * @example
 * formatWallClock(new Date('2026-04-01T14:00:00Z'), -240, 'dd-MM-yyyy HH:mm:ss') //=> '01-04-2026 10:00:00'
 */
export function formatWallClock(instant: Date, offsetMinutes: number, pattern: string): string {
  const w = wallClock(instant, offsetMinutes);
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  return pattern.replace(TOKENS, (token) => {
    switch (token) {
      case 'yyyy':
        return p(w.year, 4);
      case 'MM':
        return p(w.month);
      case 'dd':
        return p(w.day);
      case 'HH':
        return p(w.hour);
      case 'mm':
        return p(w.minute);
      case 'ss':
        return p(w.second);
      case 'SSS':
        return p(w.millisecond, 3);
      default:
        return offsetSuffix(offsetMinutes);
    }
  });
}
