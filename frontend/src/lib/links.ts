// Keeps the webview on Gatehouse's own page.
//
// In the Wails webview a plain <a href> click navigates the whole window away
// from the app. Gatehouse renders no server-provided links, but should one
// ever slip in (or a dropped file try to open), nothing happens instead.

/** Installs the guards on doc; returns a function that removes them. */
export function guardNavigation(doc: Document): () => void {
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    const link = target && typeof target.closest === 'function' ? target.closest('a[href], area[href]') : null;
    if (link) e.preventDefault();
  };
  const onDrop = (e: DragEvent) => e.preventDefault();
  doc.addEventListener('click', onClick, true);
  doc.addEventListener('auxclick', onClick, true);
  doc.addEventListener('dragover', onDrop);
  doc.addEventListener('drop', onDrop);
  return () => {
    doc.removeEventListener('click', onClick, true);
    doc.removeEventListener('auxclick', onClick, true);
    doc.removeEventListener('dragover', onDrop);
    doc.removeEventListener('drop', onDrop);
  };
}

/** The image types shown inline; anything else (SVG above all) is not rendered. */
export const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The audio types given to an <audio> player. */
export const audioTypes = new Set([
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/mp4',
  'audio/aac',
  'audio/flac',
]);

const base64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * A data: URL for server-supplied media, or "" when its type is not allowed
 * or its data is not plain base64. The type is matched exactly (lower-cased,
 * parameters dropped) so nothing else can be smuggled into the URL.
 */
export function mediaURL(mimeType: string, data: string, allowed: Set<string>): string {
  const type = (mimeType || '').split(';')[0].trim().toLowerCase();
  if (!allowed.has(type) || !data || !base64.test(data)) return '';
  return `data:${type};base64,${data.replace(/\s+/g, '')}`;
}
