/**
 * Types derived from the generated per-type documents (`ecf-types.gen.ts`), for SDK users: the line of a type and
 * the draft `fillTotals` completes. Types only; no run-time code.
 */
import type { EcfDocument } from './ecf-types.gen.js';
import type { EcfType } from './model.js';

/** One line (`items[]`) of an e-CF type `T`. */
export type EcfItem<T extends EcfType = EcfType> = T extends EcfType ? EcfDocument<T>['items'][number] : never;

/**
 * A document of type `T` before `fillTotals`: `totales` may be absent or partial and each line's `monto` may be
 * absent (both are computed); everything else is as in `EcfDocument<T>`.
 */
export type EcfDraft<T extends EcfType = EcfType> = T extends EcfType
  ? Omit<EcfDocument<T>, 'totales' | 'items'> & {
      totales?: Partial<EcfDocument<T>['totales']> | null;
      items: (Omit<EcfItem<T>, 'monto'> & { monto?: number | null })[];
    }
  : never;
