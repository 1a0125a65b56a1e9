import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pictureKey, usePictures, type PictureOf } from '../state/pictures.ts';

/**
 * An item's picture in its colour (SPEC §15): asked for when shown; until it is there, or where there is
 * none, a plain placeholder that says why on hover and to screen readers — never a broken image, never a wait.
 */
export function Picture(props: {
  of: PictureOf | null;
  size: number;
  label: string;
  /** Said when the picture is the item's usual one on purpose (not made in the colour asked). */
  usual?: string;
}) {
  const { of: item, size, label } = props;
  const key = item === null ? '' : pictureKey(item);
  const shown = usePictures(useShallow((s) => (key === '' ? undefined : s.shown.get(key))));
  const hold = usePictures((s) => s.hold);
  // Held while on screen, as this item (its key): not again at every drawing of the same one.
  const of = useRef(item);
  of.current = item;
  useEffect(() => (key === '' || of.current === null ? undefined : hold(of.current)), [key, hold]);
  const style = { width: size, height: size };
  if (shown?.state === 'ready') {
    const alt =
      props.usual !== undefined
        ? `${label} (${props.usual})`
        : shown.inColour
          ? label
          : `${label} (its usual picture: none in this colour)`;
    const usual = props.usual !== undefined || !shown.inColour;
    return (
      <img
        className={usual ? 'picture usual' : 'picture'}
        src={shown.src}
        alt={alt}
        title={alt}
        style={style}
        decoding="async"
        data-testid="picture"
      />
    );
  }
  const why =
    item === null
      ? 'nothing to show'
      : shown === undefined || shown.state === 'waiting'
        ? 'the picture is on its way'
        : shown.why;
  return (
    <span
      className="picture placeholder"
      role="img"
      aria-label={`${label}: no picture, ${why}`}
      title={`No picture: ${why}`}
      style={style}
      data-testid="picture-placeholder"
      data-why={why}
    />
  );
}
