/** The put-away list of an order coming in, its files for BrickLink, and the stock from BrickLink's API (SPEC §16). */
import { BrickWorkError } from '../../errors.ts';
import { reads, withCredentials, writes, type PartialCallTable } from './define.ts';

const notYet = (): never => {
  throw new BrickWorkError('internal', 'This call is not built yet.');
};

export const PUT_AWAY_CALLS = {
  'putAway.list': reads(() => () => notYet()),
  'putAway.export': reads(() => () => notYet()),
  'stock.lookup': withCredentials(writes(() => () => notYet())),
} satisfies PartialCallTable;
