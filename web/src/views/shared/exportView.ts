// A view leaves the page for a slide, as SVG or PNG. The SVG holds the view's
// drawings as vectors with the page's styles resolved into them (a file has no
// stylesheet), its captions and legends as text, its canvases as images, so it
// opens the same in a browser, Inkscape or a slide tool. The PNG is that SVG
// drawn at twice its size (sharp on a projector).

import { backgroundOf, node, rasterize } from '../../charts/exporting';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The styles a view's drawing takes from CSS classes: written onto each node of the copy. */
const DRAWN = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
  'paint-order',
  'stroke-linejoin',
  // Geometry some views set in CSS (so that it can glide): a file needs it inline.
  'x',
  'y',
  'width',
  'height',
] as const;

/** Whether a CSS color paints anything. */
const painted = (color: string) => color !== '' && color !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(color);

/** A copy of `svg` with every node's drawn styles inline, and its canvases as images. */
function resolvedCopy(svg: SVGSVGElement): SVGSVGElement {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const to = [copy, ...Array.from(copy.querySelectorAll('*'))];
  from.forEach((el, i) => {
    const target = to[i];
    if (!target) return;
    const style = getComputedStyle(el);
    const declarations = DRAWN.map((p) => [p, style.getPropertyValue(p)] as const).filter(([, v]) => v !== '' && v !== 'auto');
    target.setAttribute('style', declarations.map(([p, v]) => `${p}:${v}`).join(';'));
    // A transform set in CSS (pages glide) becomes the attribute every SVG reader knows.
    const transform = style.getPropertyValue('transform');
    if (transform && transform !== 'none') target.setAttribute('transform', transform);
  });
  // A canvas in a foreignObject (a dense B+tree level) becomes an image.
  copy.querySelectorAll('foreignObject').forEach((fo, k) => {
    const canvas = svg.querySelectorAll('foreignObject')[k]?.querySelector('canvas');
    const image = node('image', {
      x: fo.getAttribute('x') ?? 0,
      y: fo.getAttribute('y') ?? 0,
      width: fo.getAttribute('width') ?? 0,
      height: fo.getAttribute('height') ?? 0,
      href: canvas ? canvas.toDataURL('image/png') : '',
    });
    fo.replaceWith(image);
  });
  copy.querySelectorAll('title').forEach((t) => t.remove());
  return copy;
}

/** The lines of a text node as laid out: words grouped by the line box they sit on. */
function linesOf(text: Text): { x: number; y: number; bottom: number; text: string }[] {
  const lines: { x: number; y: number; bottom: number; text: string }[] = [];
  const range = document.createRange();
  for (const m of (text.textContent ?? '').matchAll(/\S+/g)) {
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const r = range.getBoundingClientRect();
    const line = lines.find((l) => Math.abs(l.y - r.top) < r.height / 2);
    if (line) line.text += ` ${m[0]}`;
    else lines.push({ x: r.left, y: r.top, bottom: r.bottom, text: m[0] });
  }
  return lines;
}

/** The view as a standalone SVG document (sizes in the view's own pixels). */
export function viewSvg(frame: HTMLElement): string {
  const zoom = (frame as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1;
  const box = frame.getBoundingClientRect();
  const at = (r: DOMRect) => ({ x: (r.left - box.left) / zoom, y: (r.top - box.top) / zoom, w: r.width / zoom, h: r.height / zoom });
  const out = node('svg', { xmlns: SVG_NS, width: box.width / zoom, height: box.height / zoom, viewBox: `0 0 ${box.width / zoom} ${box.height / zoom}` });
  out.append(node('rect', { width: '100%', height: '100%', fill: backgroundOf(frame) }));
  const walker = document.createTreeWalker(frame, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n instanceof Text ? n.parentElement : (n as Element);
    // The view's controls (a zoom select, a setting's field) are the page's, not the picture's.
    if (!el || el.closest('.sr-only, .view-export, label, button, select, form') || getComputedStyle(el).display === 'none') continue;
    if (n instanceof SVGSVGElement && !n.parentElement?.closest('svg')) {
      const p = at(n.getBoundingClientRect());
      // Placed by a group: the copy's own x and y are styles now.
      const place = node('g', { transform: `translate(${p.x},${p.y})` });
      place.append(resolvedCopy(n));
      out.append(place);
    } else if (n instanceof HTMLCanvasElement && !n.closest('svg')) {
      const p = at(n.getBoundingClientRect());
      out.append(node('image', { x: p.x, y: p.y, width: p.w, height: p.h, href: n.toDataURL('image/png') }));
    } else if (n instanceof HTMLProgressElement) {
      // A meter: its track, and the part filled.
      const p = at(n.getBoundingClientRect());
      const style = getComputedStyle(n);
      out.append(node('rect', { x: p.x, y: p.y, width: p.w, height: p.h, fill: 'none', stroke: style.color, 'stroke-opacity': 0.5, rx: 3 }));
      out.append(node('rect', { x: p.x, y: p.y, width: (p.w * n.value) / (n.max || 1), height: p.h, fill: style.accentColor === 'auto' ? style.color : style.accentColor, rx: 3 }));
    } else if (n instanceof HTMLElement && !n.closest('svg') && !n.textContent?.trim() && n !== frame) {
      // A legend's swatch or a meter's bar: a box of color, or a bordered box, with no text.
      const style = getComputedStyle(n);
      const fill = painted(style.backgroundColor) ? style.backgroundColor : 'none';
      const border = parseFloat(style.borderTopWidth) > 0 && painted(style.borderTopColor) ? style.borderTopColor : null;
      if (fill !== 'none' || border) {
        const p = at(n.getBoundingClientRect());
        out.append(node('rect', { x: p.x, y: p.y, width: p.w, height: p.h, fill, ...(border ? { stroke: border } : {}) }));
      }
    } else if (n instanceof Text && !el.closest('svg') && n.textContent?.trim()) {
      const style = getComputedStyle(el);
      for (const line of linesOf(n)) {
        const x = (line.x - box.left) / zoom;
        // The baseline, about a fifth of the line box above its bottom.
        const y = (line.bottom - box.top) / zoom - (line.bottom - line.y) / zoom / 5;
        out.append(
          node('text', { x, y, fill: style.color, 'font-size': style.fontSize, 'font-family': style.fontFamily, 'font-weight': style.fontWeight }, line.text),
        );
      }
    }
  }
  return new XMLSerializer().serializeToString(out);
}

/** The view as a PNG at twice its size (sharp on a projector). */
export function viewPng(frame: HTMLElement): Promise<Blob> {
  return rasterize(viewSvg(frame));
}
