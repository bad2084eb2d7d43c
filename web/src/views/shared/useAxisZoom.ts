// Wheel or pinch zooms along x, drag pans: d3-zoom computes the transform and
// React draws with it (the views lay out at `width * k` and shift by `x`).
import { useEffect, useRef, useState, type RefObject } from 'react';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomTransform } from 'd3-zoom';

export interface AxisZoom {
  svg: RefObject<SVGSVGElement | null>;
  t: ZoomTransform;
  /** While the reader zooms or pans (animations should follow the hand). */
  zooming: boolean;
}

export function useAxisZoom(width: number, maxScale: number): AxisZoom {
  const svg = useRef<SVGSVGElement>(null);
  const [t, setT] = useState<ZoomTransform>(zoomIdentity);
  const [zooming, setZooming] = useState(false);
  useEffect(() => {
    if (!svg.current) return;
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent([1, maxScale])
      .translateExtent([
        [0, 0],
        [width, 10_000],
      ])
      .on('start', () => setZooming(true))
      .on('zoom', (e: { transform: ZoomTransform }) => setT(e.transform))
      .on('end', () => setZooming(false));
    const s = select(svg.current);
    s.call(z);
    return () => {
      s.on('.zoom', null);
    };
  }, [width, maxScale]);
  return { svg, t, zooming };
}
