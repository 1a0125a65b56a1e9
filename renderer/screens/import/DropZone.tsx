import { useState } from 'react';
import { FilePicker } from '../../components/FilePicker.tsx';
import { useImport } from '../../state/import.ts';

/** Where a document comes in: dropped, chosen with the file picker, or (in the app) opened with its dialog. */
export function DropZone() {
  const choose = useImport((s) => s.choose);
  const pick = useImport((s) => s.pick);
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={`dropzone${dragging ? ' over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        const f = e.dataTransfer.files[0];
        if (f) void choose(f);
      }}
    >
      <p>
        Drop an order document here — a BrickLink order (XML, or the orders download as CSV), BrickLink XML, a
        BrickStore or BrickStock file (.bsx), a CSV part list (Rebrickable’s, BrickLink Studio’s, a spreadsheet’s), a
        model (LDraw .ldr or .mpd, BrickLink Studio .io) — or
      </p>
      <FilePicker
        label="Choose a file…"
        testId="import-file"
        accept=".xml,.bsx,.csv,.txt,.tsv,.ldr,.mpd,.dat,.io"
        onFiles={([f]) => {
          if (f) void choose(f);
        }}
      />
      {window.brickWork ? <button onClick={() => void pick()}>Open…</button> : null}
    </div>
  );
}
