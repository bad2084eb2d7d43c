// What a blogger pastes: the iframe, and (for hosts that want the widget to
// fit its content) a few lines of script that hear the widget's height.
// Everything is escaped for an HTML attribute or a script string.

/** The message a widget sends its host when its height changes. */
export const HEIGHT_MESSAGE = 'indexlab:height';

/** A height the host should trust: a number of pixels, within reason. */
export function heightOf(data: unknown): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.type !== HEIGHT_MESSAGE || typeof d.height !== 'number' || !Number.isFinite(d.height)) return null;
  return Math.min(10_000, Math.max(80, Math.ceil(d.height)));
}

const attribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The iframe: full column width, lazy, titled for screen readers, a height that fits most scenarios. */
export function iframeSnippet(src: string, title: string, height = 560): string {
  return `<iframe src="${attribute(src)}" title="${attribute(title)}" loading="lazy" width="100%" height="${height}" style="width:100%;border:0"></iframe>`;
}

/**
 * The host's resize script: it sets the height of the iframe whose widget sent
 * it, and only from IndexLab's origin.
 */
export function resizeSnippet(origin: string): string {
  return `<script>
addEventListener("message", function (e) {
  if (e.origin !== ${JSON.stringify(origin).replace(/</g, '\\u003c')} || !e.data || e.data.type !== "${HEIGHT_MESSAGE}") return;
  var h = Math.min(10000, Math.max(80, Math.ceil(Number(e.data.height) || 0)));
  document.querySelectorAll("iframe").forEach(function (f) {
    if (f.contentWindow === e.source) f.style.height = h + "px";
  });
});
</script>`;
}
