// A chart leaves the page as PNG, SVG or CSV. The SVG is made standalone,
// with its title and legend, so the file says what it shows on its own.

/** Saves `blob` as `name` through a temporary link. */
export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** What a chart file carries besides the plot: its title and legend. */
export interface Frame {
  title: string;
  legend: readonly { name: string; color: string; dash: string }[];
}

/** The first opaque background at or above `el` (the page's, in the theme shown). */
export function backgroundOf(el: Element | null): string {
  for (let e = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return '#ffffff';
}

/** An SVG element with its attributes (and text). */
export function node(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const n = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

const TOP = 30;
const LEGEND_ROW = 22;

/**
 * The chart as a standalone SVG document: its title above, its legend below,
 * the theme's colors resolved (currentColor, the page's background), so the
 * file reads the same wherever it is opened.
 */
export function standaloneSvg(svg: SVGSVGElement, frame: Frame): string {
  const width = svg.viewBox.baseVal.width || svg.clientWidth;
  const height = svg.viewBox.baseVal.height || svg.clientHeight;
  const style = getComputedStyle(svg);
  const fg = style.color || '#000';
  const total = TOP + height + LEGEND_ROW * Math.ceil(frame.legend.length / 3) + 8;
  const out = node('svg', {
    xmlns: SVG_NS,
    width,
    height: total,
    viewBox: `0 0 ${width} ${total}`,
    color: fg,
    'font-family': style.fontFamily || 'sans-serif',
    'font-size': 12,
  }) as SVGSVGElement;
  out.append(node('rect', { width: '100%', height: '100%', fill: backgroundOf(svg) }));
  out.append(node('text', { x: 8, y: 20, fill: fg, 'font-size': 15, 'font-weight': 600 }, frame.title));
  const plot = node('g', { transform: `translate(0,${TOP})` });
  for (const child of Array.from(svg.childNodes)) plot.append(child.cloneNode(true));
  // d3-axis draws in currentColor; a file has no CSS to resolve it.
  plot.querySelectorAll('[stroke="currentColor"]').forEach((n) => n.setAttribute('stroke', fg));
  plot.querySelectorAll('[fill="currentColor"]').forEach((n) => n.setAttribute('fill', fg));
  plot.querySelectorAll('title').forEach((n) => n.remove());
  out.append(plot);
  frame.legend.forEach((l, i) => {
    const x = 8 + (i % 3) * (width / 3);
    const y = TOP + height + LEGEND_ROW * Math.floor(i / 3) + 12;
    out.append(node('line', { x1: x, x2: x + 28, y1: y, y2: y, stroke: l.color, 'stroke-width': 3, ...(l.dash ? { 'stroke-dasharray': l.dash } : {}) }));
    out.append(node('text', { x: x + 34, y: y + 4, fill: fg }, l.name));
  });
  return new XMLSerializer().serializeToString(out);
}

/** The chart drawn into a PNG at twice its size (sharp on a projector or a retina screen). */
export function pngOf(svg: SVGSVGElement, frame: Frame): Promise<Blob> {
  return rasterize(standaloneSvg(svg, frame));
}

/** A standalone SVG document drawn into a PNG at twice its size. */
export async function rasterize(text: string): Promise<Blob> {
  const size = /width="([\d.]+)" height="([\d.]+)"/.exec(text);
  const width = Number(size?.[1] ?? 0);
  const height = Number(size?.[2] ?? 0);
  const image = new Image();
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('the picture could not be drawn as an image'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(width * 2);
    canvas.height = Math.ceil(height * 2);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas in this browser');
    ctx.scale(2, 2);
    ctx.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A file name from a chart's title: "chart-latency-against-batch-size.png". */
export function fileName(title: string, ext: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-|-$/g, '');
  return `chart-${slug || 'indexlab'}.${ext}`;
}
