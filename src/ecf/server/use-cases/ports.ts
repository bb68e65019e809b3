/**
 * What every use case may receive besides its storage and transport methods: the authority identity of an
 * issuer, the clock and a logger. Each use case names the storage methods it calls with
 * `Pick<Storage, …>`, so a split of `Storage` into ports per kind of record touches only those lists.
 */
import type { Logger } from 'pino';
import type { AuthorityIdentity } from '../../dgii/index.js';
import type { Issuer } from '../storage/types.js';

/** The identity the transport authenticates as; throws (a 409 at the HTTP edge) without a usable certificate. */
export type IdentityOf = (issuer: Issuer) => Promise<AuthorityIdentity>;

/** The logger methods use cases call (pino's `Logger` satisfies it). */
export type UseCaseLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export type NowFn = () => Date;
