import type { CompareView } from '../../../src/api/contract.ts';
import { useCompare } from '../../state/compare.ts';

/**
 * The difference's exports (SPEC §13): CSV, a wanted list or a Rebrickable list of the shortfall, a mass
 * upload of the extra. One that would leave out lots its target does not number asks first.
 */
export function CompareExports(props: { view: CompareView }) {
  const { view } = props;
  const actions = useCompare.getState();
  return (
    <>
      <button
        onClick={() => void actions.exportAs('csv')}
        disabled={view.totals.missing === 0 && view.totals.extra === 0}
        data-testid="export-csv"
      >
        Export the difference (CSV)…
      </button>
      <button
        onClick={() => void actions.exportAs('wanted')}
        disabled={view.totals.missing === 0}
        data-testid="export-wanted"
      >
        Wanted list of what is missing…
      </button>
      <button
        onClick={() => void actions.exportAs('upload')}
        disabled={view.totals.extra === 0}
        data-testid="export-upload"
      >
        Mass upload of the extra…
      </button>
      <button
        onClick={() => void actions.exportAs('rebrickable')}
        disabled={view.totals.missing === 0}
        data-testid="export-rebrickable"
      >
        Rebrickable list of what is missing…
      </button>
    </>
  );
}

/** An item export that would leave out lots its target does not number: its refusal in words, and the way on. */
export function CompareExportAsk(props: {
  pendingExport: NonNullable<ReturnType<typeof useCompare.getState>['pendingExport']>;
}) {
  const p = props.pendingExport;
  const actions = useCompare.getState();
  return (
    <div className="confirm" role="dialog" aria-label="Export without some lots" data-testid="export-ask">
      <p>{p.message.replace(/ \(([^()]*); on the command line: [^()]*\)/, '')}</p>
      <div className="row">
        <button
          className="primary"
          onClick={() => void actions.exportAs(p.as, [p.code])}
          data-testid="export-ask-confirm"
        >
          Export without them
        </button>
        <button onClick={() => actions.cancelExport()}>Cancel</button>
      </div>
    </div>
  );
}
