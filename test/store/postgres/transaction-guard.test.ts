import { describe, expect, it } from 'vitest';
import type { BridgeFault } from '../../../src/store/postgres/bridge-messages.ts';
import { TransactionGuard } from '../../../src/store/postgres/transaction-guard.ts';

// ADR 0027 §7: a connection lost inside a transaction is refused until the caller's ROLLBACK; outside
// one, the next statement connects again. node-postgres may tell of the loss before or after the answer
// to the statement under way: each order here, as the bridge's thread meets them.
const cut: BridgeFault = {
  code: '57P01',
  message: 'terminating connection due to administrator command',
  connection: true,
};

/** A statement run on a connection that answers (`before`, then `answered`). */
function run(g: TransactionGuard, sql: string): void {
  expect(g.before(sql), sql).toBe('run');
  g.answered(sql);
}

describe('the bridge thread’s guard of a transaction on a connection that may be lost', () => {
  it('outside a transaction a loss costs nothing: the next statement runs (on a new connection)', () => {
    const g = new TransactionGuard();
    run(g, 'SELECT 1');
    g.lost(cut);
    expect(g.before('SELECT 1')).toBe('run');
  });

  it('a loss inside a transaction: every statement refused with it, a savepoint’s rollback too, until the ROLLBACK', () => {
    const g = new TransactionGuard();
    run(g, 'BEGIN');
    run(g, 'INSERT INTO job (kind) VALUES ($1)');
    g.lost(cut);
    expect(g.before('INSERT INTO job (kind) VALUES ($1)')).toEqual(cut);
    expect(g.before('ROLLBACK TO SAVEPOINT bw_1')).toEqual(cut);
    expect(g.before('COMMIT')).toEqual(cut);
    expect(g.before('ROLLBACK')).toBe('rolled-back');
    expect(g.before('SELECT 1')).toBe('run');
    g.connected();
    run(g, 'BEGIN');
    expect(g.before('SELECT 1')).toBe('run');
  });

  it('a statement of the transaction meeting the loss itself: the same', () => {
    const g = new TransactionGuard();
    run(g, 'BEGIN');
    expect(g.before('UPDATE job SET state = $1')).toBe('run');
    expect(g.failed('UPDATE job SET state = $1', cut)).toBeNull();
    expect(g.before('SELECT 1')).toEqual(cut);
    expect(g.before('ROLLBACK')).toBe('rolled-back');
    expect(g.before('SELECT 1')).toBe('run');
  });

  // The soak's PostgreSQL kind found these two: each left the thread refusing every statement for good.
  it('a ROLLBACK that is first to meet the loss ends the transaction: nothing is left to roll back', () => {
    const g = new TransactionGuard();
    run(g, 'BEGIN');
    expect(g.before('ROLLBACK')).toBe('run');
    expect(g.failed('ROLLBACK', cut)).toBe('rolled-back');
    expect(g.before('SELECT 1')).toBe('run');
  });

  it('a COMMIT answered, and the loss heard just before its answer was taken: the transaction is over, the next statement runs', () => {
    const g = new TransactionGuard();
    run(g, 'BEGIN');
    run(g, 'INSERT INTO job (kind) VALUES ($1)');
    expect(g.before('COMMIT')).toBe('run');
    g.lost(cut);
    g.answered('COMMIT');
    expect(g.before('SELECT 1')).toBe('run');
  });

  it('a BEGIN answered on a connection already lost: the transaction it opened is refused until its ROLLBACK', () => {
    const g = new TransactionGuard();
    expect(g.before('BEGIN')).toBe('run');
    g.lost(cut);
    g.answered('BEGIN');
    expect(g.before('SELECT pg_advisory_xact_lock($1)')).toEqual(cut);
    expect(g.before('ROLLBACK')).toBe('rolled-back');
    expect(g.before('SELECT 1')).toBe('run');
  });

  it('an error of PostgreSQL’s own is no loss: the transaction goes on to its ROLLBACK as the caller says', () => {
    const g = new TransactionGuard();
    run(g, 'BEGIN');
    expect(g.failed('SELEKT 1', { code: '42601', message: 'syntax error', connection: false })).toBeNull();
    run(g, 'ROLLBACK');
    expect(g.before('SELECT 1')).toBe('run');
  });
});
