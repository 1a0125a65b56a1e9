import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pictureKey, usePictures, type PictureOf } from '../state/pictures.ts';

/** One observer for every picture: each is told when it comes into view or leaves it. */
const watched = new Map<Element, (visible: boolean) => void>();
let observer: IntersectionObserver | null = null;

function watch(el: Element, told: (visible: boolean) => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    told(true);
    return () => told(false);
  }
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) watched.get(e.target)?.(e.isIntersecting);
  });
  watched.set(el, told);
  observer.observe(el);
  return () => {
    watched.delete(el);
    observer?.unobserve(el);
  };
}

/**
 * An item's picture in its colour (SPEC §15): asked for while it is in view (a long compare's rows below
 * the fold ask nothing); until it is there, or where there is none, a plain placeholder that says why on
 * hover and to screen readers — never a broken image, never a wait.
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
  // Held while in view, as this item (its key): not again at every drawing of the same one. The frame
  // stays the same element whether it holds the picture or the placeholder, so its watch goes on.
  const frame = useRef<HTMLSpanElement>(null);
  const of = useRef(item);
  of.current = item;
  useEffect(() => {
    const el = frame.current;
    const wanted = of.current;
    if (el === null || key === '' || wanted === null) return;
    let release: (() => void) | null = null;
    const stop = watch(el, (visible) => {
      if (visible) release ??= hold(wanted);
      else {
        release?.();
        release = null;
      }
    });
    return () => {
      stop();
      release?.();
    };
  }, [key, hold]);
  const style = { width: size, height: size };
  let inside;
  if (shown?.state === 'ready') {
    const alt =
      props.usual !== undefined
        ? `${label} (${props.usual})`
        : shown.inColour
          ? label
          : `${label} (its usual picture: none in this colour)`;
    const usual = props.usual !== undefined || !shown.inColour;
    inside = (
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
  } else {
    const why =
      item === null
        ? 'nothing to show'
        : shown === undefined || shown.state === 'waiting'
          ? 'the picture is on its way'
          : shown.why;
    inside = (
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
  return (
    <span className="picture-frame" ref={frame}>
      {inside}
    </span>
  );
}
