import { useEffect, useRef } from 'react';

/**
 * A file picker staff reach by Tab like any button (SPEC §9: file pickers are buttons), over a file input
 * kept out of the tab order. Ctrl+O (⌘O) opens the picker of the screen on show (`openFilePicker`).
 */
export function FilePicker(props: {
  readonly label: string;
  readonly testId: string;
  readonly onFiles: (files: File[]) => void;
  readonly multiple?: boolean;
  readonly accept?: string;
  readonly disabled?: boolean;
  readonly primary?: boolean;
  /** False: Ctrl+O (⌘O) passes it by (a picker beside the screen's own work, e.g. more catalogue files). */
  readonly shortcut?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const shortcut = props.shortcut !== false;
  useEffect(() => {
    const el = input.current;
    if (el === null || !shortcut) return;
    shown.push(el);
    if (openWhenShown) {
      openWhenShown = false;
      el.click();
    }
    return () => {
      shown.splice(shown.indexOf(el), 1);
    };
  }, [shortcut]);
  return (
    <>
      <button
        className={props.primary ? 'primary' : undefined}
        disabled={props.disabled}
        data-testid={`${props.testId}-button`}
        onClick={() => input.current?.click()}
      >
        {props.label}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        multiple={props.multiple}
        accept={props.accept}
        data-testid={props.testId}
        disabled={props.disabled}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length > 0) props.onFiles(files);
          e.target.value = '';
        }}
      />
    </>
  );
}

/** The pickers on screen, the last shown last. */
const shown: HTMLInputElement[] = [];
let openWhenShown = false;

/**
 * Ctrl+O (⌘O): opens the file picker on screen (the catalogue's, or the import's); with none on screen,
 * `elsewhere` shows the Import screen, whose picker opens as it appears.
 */
export function openFilePicker(elsewhere: () => void): void {
  const el = shown.at(-1);
  if (el !== undefined && !el.disabled) {
    el.click();
    return;
  }
  openWhenShown = true;
  elsewhere();
}
