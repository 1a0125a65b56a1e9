/**
 * What the bridge's thread (ADR 0027 §7) knows of its caller's transaction and the connection it is on,
 * kept apart from the sockets so each order of events can be tested. A connection lost inside a
 * transaction leaves the server to roll it back; until the caller's own ROLLBACK every statement is
 * refused, so nothing meant as one transaction runs on a new connection piecemeal. Outside one, the
 * next statement connects again.
 *
 * A loss is the connection's, not the statement's: node-postgres may report it before or after the
 * answer to the statement under way. A COMMIT answered and then the loss heard ends the transaction
 * (the next statement connects again); a BEGIN answered on a connection already lost opens one that is
 * refused until its ROLLBACK.
 */
import type { BridgeFault } from './bridge-messages.ts';

/** A statement that ends the whole transaction by rolling it back (not ROLLBACK TO a savepoint). */
function isRollback(sql: string): boolean {
  return /^\s*(ROLLBACK|ABORT)(\s+(TRANSACTION|WORK))?\s*;?\s*$/i.test(sql);
}

function isCommit(sql: string): boolean {
  return /^\s*(COMMIT|END)(\s+(TRANSACTION|WORK))?\s*;?\s*$/i.test(sql);
}

function isBegin(sql: string): boolean {
  return /^\s*(BEGIN|START\s+TRANSACTION)\b/i.test(sql);
}

export class TransactionGuard {
  /** The caller's transaction is open: its BEGIN answered, its COMMIT or ROLLBACK not yet. */
  private open = false;
  /** The connection is gone, and how; until the thread connects again. */
  private gone: BridgeFault | null = null;

  /**
   * Before a statement: run it; answer a ROLLBACK with nothing left to do (the server ended the
   * transaction with the session); or refuse it with the loss, the transaction's connection being gone.
   */
  before(sql: string): 'run' | 'rolled-back' | BridgeFault {
    if (!this.open || this.gone === null) return 'run';
    if (isRollback(sql)) {
      this.open = false;
      return 'rolled-back';
    }
    return this.gone;
  }

  /** The thread made a new connection. */
  connected(): void {
    this.gone = null;
  }

  /** The connection is gone (an event of the socket). */
  lost(fault: BridgeFault): void {
    this.gone = fault;
  }

  /** A statement was answered. */
  answered(sql: string): void {
    if (isBegin(sql)) this.open = true;
    else if (isCommit(sql) || isRollback(sql)) this.open = false;
  }

  /**
   * A statement failed. A ROLLBACK that is first to find the connection gone has nothing left to do
   * ('rolled-back'); refused, it would leave the thread waiting for another its caller never sends.
   */
  failed(sql: string, fault: BridgeFault): 'rolled-back' | null {
    if (!fault.connection) return null;
    this.gone = fault;
    if (!isRollback(sql)) return null;
    this.open = false;
    return 'rolled-back';
  }

  /** The caller closed the connection. */
  closed(): void {
    this.open = false;
    this.gone = null;
  }
}
