/** The system clock: the default `Clock` where the server is composed (storage adapters, app, worker). */
import type { Clock } from '../ports.js';

export const systemClock: Clock = () => new Date();
