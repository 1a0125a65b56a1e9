import { useShallow } from 'zustand/react/shallow';
import type { PreviewDocumentView } from '../../../src/api/contract.ts';
import {
  COLOUR_NUMBERING_NAMES,
  COLOUR_NUMBERINGS,
  type ColourNumbering,
  type WarningCode,
} from '../../../src/vocabulary/reading.ts';
import { useImport } from '../../state/import.ts';

const HOW_WORDS: Readonly<Record<NonNullable<PreviewDocumentView['colourNumbering']>['how'], string>> = {
  format: 'the format says so',
  title: 'the column’s title says so',
  shape: 'Rebrickable lists are written so',
  chosen: 'as you chose',
  names: 'the colour names agree',
  guessed: 'a guess: the list does not say',
};

/** Models (LDraw, Studio): read as parts counted, not as columns. */
const MODELS: readonly string[] = ['ldraw-model', 'studio-model'];

/** "BrickLink’s": a numbering as the preview says it. */
const numberingWords = (n: ColourNumbering) => `${COLOUR_NUMBERING_NAMES[n]}’s`;

/** What the reading's boxes and choice change: the import's, or another preview's (the stock's). */
export interface ReadingControls {
  readonly acknowledged: readonly WarningCode[];
  acknowledge(code: WarningCode, seen: boolean): void;
  readonly colourNumbering: ColourNumbering | null;
  setColourNumbering(numbering: ColourNumbering | null): Promise<void>;
  readonly busy: boolean;
}

/**
 * How the file was read (SPEC §8): the columns read and not read, the numbering of its colour numbers
 * (which staff may change for a list), and what the reader assumed, each with the box that acknowledges it.
 */
export function Reading({ doc, controls }: { doc: PreviewDocumentView; controls?: ReadingControls }) {
  const imports = useImport(
    useShallow((s) => ({
      acknowledged: s.acknowledged,
      acknowledge: s.acknowledge,
      colourNumbering: s.colourNumbering,
      setColourNumbering: s.setColourNumbering,
      busy: s.busy,
    })),
  );
  const { acknowledged, acknowledge, colourNumbering, setColourNumbering, busy } = controls ?? imports;
  const c = doc.colourNumbering;
  return (
    <div className="reading" data-testid="reading">
      {doc.warnings.length > 0 ? (
        <ul className="warnings" aria-label="What the reader assumed">
          {doc.warnings.map((w) => (
            <li key={w.code} className="warning" data-code={w.code}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={acknowledged.includes(w.code)}
                  onChange={(e) => acknowledge(w.code, e.target.checked)}
                />
                <span>
                  {w.message} <b>I have checked this.</b>
                </span>
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="header">
        {c !== null ? (
          <>
            <dt>Colour numbers</dt>
            <dd>
              {c.choosable ? (
                <label>
                  read as{' '}
                  <select
                    aria-label="Colour numbers are"
                    value={colourNumbering ?? c.numbering}
                    disabled={busy}
                    onChange={(e) => void setColourNumbering(e.target.value as ColourNumbering)}
                  >
                    {COLOUR_NUMBERINGS.map((n) => (
                      <option key={n} value={n}>
                        {numberingWords(n)}
                      </option>
                    ))}
                  </select>{' '}
                </label>
              ) : (
                <>read as {numberingWords(c.numbering)} </>
              )}
              <small>({HOW_WORDS[c.how]})</small>
            </dd>
          </>
        ) : null}
        {MODELS.includes(doc.format) ? (
          <>
            <dt>The model</dt>
            <dd data-testid="columns-read">
              {doc.columns.read.map((r) => `${r.as} ${r.title}`).join(', ')}; {doc.counts.total.toLocaleString('en-US')}{' '}
              line{doc.counts.total === 1 ? '' : 's'}, one for each part in each colour
            </dd>
          </>
        ) : (
          <>
            <dt>Columns read</dt>
            <dd data-testid="columns-read">{doc.columns.read.map((r) => `${r.title} (${r.as})`).join(', ') || '—'}</dd>
          </>
        )}
        {doc.columns.notRead.length > 0 ? (
          <>
            <dt>Not read</dt>
            <dd data-testid="columns-not-read">{doc.columns.notRead.join(', ')}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
