import { useId } from 'react';
import { focusArea, highlightStroke, HIGHLIGHT_COLOUR, type BundleStep, type StepPlace } from '../../../src/ui-protocol/index.js';

export interface StepPictureProps {
  url: string;
  step: Pick<BundleStep, 'box' | 'point' | 'viewport'>;
  alt: string;
  /** The whole frame, or (default) zoomed to the area around the element. */
  whole: boolean;
}

/**
 * A step's picture with the acted element outlined and the click point marked, zoomed to the
 * area around them (or the whole frame). An SVG: the picture, box and marker share the
 * picture's own pixels, so the highlight lands on the recorded box at any size.
 */
export function StepPicture({ url, step, alt, whole }: StepPictureProps) {
  const titleId = useId();
  const { box, point, viewport } = step;
  if (!box || !viewport) return <img className="picture" src={url} alt={alt} loading="lazy" />;
  const { width, height } = viewport;
  const view = whole ? { x: 0, y: 0, width, height } : focusArea(box, width, height);
  // The stroke is sized for the part shown, so it reads the same zoomed or not.
  const stroke = highlightStroke(view.width);
  return (
    <svg
      className="picture step-picture"
      role="img"
      aria-labelledby={titleId}
      viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
      data-view={`${view.x} ${view.y} ${view.width} ${view.height}`}
      preserveAspectRatio="xMidYMid meet"
      style={{ aspectRatio: `${view.width} / ${view.height}` }}
    >
      <title id={titleId}>{alt}</title>
      <image href={url} x={0} y={0} width={width} height={height} preserveAspectRatio="none" />
      <Highlight place={{ box, ...(point ? { point } : {}), viewport }} stroke={stroke} />
    </svg>
  );
}

/**
 * The outline around the acted element and the marker at the click point, in the picture's
 * own pixels (an SVG fragment): the step pictures and the player draw the same marks.
 */
export function Highlight({ place, stroke }: { place: StepPlace; stroke: number }) {
  const { box, point } = place;
  return (
    <>
      <rect
        className="highlight"
        x={box.x - stroke}
        y={box.y - stroke}
        width={box.width + 2 * stroke}
        height={box.height + 2 * stroke}
        rx={stroke}
        fill="none"
        stroke={HIGHLIGHT_COLOUR}
        strokeWidth={stroke}
      />
      {point && (
        <circle className="click-point" cx={point.x} cy={point.y} r={stroke * 3} fill={HIGHLIGHT_COLOUR} fillOpacity={0.55} stroke="#fff" strokeWidth={stroke / 2} />
      )}
    </>
  );
}
