/**
 * A document dropped anywhere on the window (issue 44: on a Mac one drops a file on the window, not on
 * a marked zone) goes to the Import screen's preview, as one dropped on its zone does. Drops that a zone
 * of the page took (it prevented the default) are left to it; a drop of no file (text, a link) is not
 * ours. Without this the window would try to show the dropped file instead of the app.
 */
export function dropAnywhere(target: EventTarget, open: (file: File) => void): () => void {
  const hasFiles = (e: Event) => (e as DragEvent).dataTransfer?.types.includes('Files') === true;
  const over = (e: Event) => {
    if (!hasFiles(e)) return;
    e.preventDefault(); // lets the drop happen here
    const transfer = (e as DragEvent).dataTransfer;
    if (transfer) transfer.dropEffect = 'copy';
  };
  const drop = (e: Event) => {
    if (e.defaultPrevented || !hasFiles(e)) return;
    e.preventDefault();
    const file = (e as DragEvent).dataTransfer?.files[0];
    if (file) open(file);
  };
  target.addEventListener('dragover', over);
  target.addEventListener('drop', drop);
  return () => {
    target.removeEventListener('dragover', over);
    target.removeEventListener('drop', drop);
  };
}
