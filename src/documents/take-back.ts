import { shownTime, type Clock } from '../platform/clock.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { getDocument, sameFileDocuments, type DocumentRow, type SameFileDocument } from '../store/documents.ts';
import { NOW } from '../undo/changes.ts';
import type { WriteSession } from '../store/session.ts';
import { deskWords, laterStepOfOtherDesk, recordStepWithInfo, type StepInfo } from '../undo/history.ts';

/**
 * Taking back an import (SPEC §8): any imported document, not only the newest step's, is marked undone
 * by a step of its own, so it can be revived by importing it again and the take-back itself can be
 * undone. A document that came with others in one file (a BrickLink file with several ORDERs) may be
 * taken back with all of them, so that the file can be imported again whole.
 */

export interface TakeBackResult {
  readonly step: StepInfo;
  /** The documents taken back, as they are now (undone). */
  readonly documents: readonly DocumentRow[];
  /** Documents of the same file that stay imported (when only one was taken back). */
  readonly stillImported: readonly SameFileDocument[];
}

function alreadyUndone(doc: DocumentRow): BrickWorkError {
  return new BrickWorkError(
    'already-undone',
    `${quote(doc.key)} was already taken back on ${shownTime(doc.undoneAt)}: there is nothing to take back. Import the file again to revive it.`,
  );
}

export function takeBack(
  session: WriteSession,
  documentId: number,
  options: {
    wholeFile?: boolean;
    /** The newest history step when the desk showed the document (`newestStep`); undefined: as it is now. */
    seenAt?: number;
  },
  clock: Clock,
): TakeBackResult {
  const { db } = session;
  const { value, step } = recordStepWithInfo(session, clock, (rec) => {
    // Looked at inside the write transaction: another process may have taken it back meanwhile.
    const doc = getDocument(db, documentId);
    if (doc.state !== 'imported') throw alreadyUndone(doc);
    const siblings = sameFileDocuments(db, [doc.id]).get(doc.id) ?? [];
    const targets = options.wholeFile
      ? [doc, ...siblings.map((s) => getDocument(db, s.id))].sort((x, y) => x.id - y.id)
      : [doc];
    if (options.seenAt !== undefined) {
      const by = laterStepOfOtherDesk(
        db,
        targets.map((t) => t.id),
        options.seenAt,
        session.desk,
      );
      if (by !== null)
        throw new BrickWorkError(
          'line-changed',
          `${quote(doc.key)} was changed since this desk showed it, by ${deskWords(by.desk)} ("${by.label}", step ${by.id}). ` +
            'Nothing was taken back; look at the order as it is now and take it back again if you still mean to.',
        );
    }
    for (const target of targets) {
      // Exactly what Undo of its import writes (state and undone_at, the time resolved when written),
      // so revival and Undo treat a taken-back document as any undone one.
      rec.set(
        'document',
        target.id,
        { state: target.state, undone_at: target.undoneAt },
        { state: 'undone', undone_at: NOW },
      );
    }
    const label =
      targets.length === 1
        ? `Take back of ${doc.key}`
        : `Take back of ${targets.length} documents from ${doc.fileName}`;
    return {
      value: { ids: targets.map((t) => t.id), stillImported: options.wholeFile ? [] : siblings },
      kind: 'take-back',
      label,
    };
  });
  return { step, documents: value.ids.map((id) => getDocument(db, id)), stillImported: value.stillImported };
}
