// The window's one way to put text on the clipboard (a code block's Copy, a
// failed browser open's Copy address): the clipboard API, or where it is
// missing or refused (an older webview), a hidden text area selected and
// copied. It only copies: nothing is opened or run.

/** Puts text on the clipboard; false when neither way could. */
export async function copyText(text: string): Promise<boolean> {
  return (await copyWithClipboard(text)) || copyWithSelection(text);
}

async function copyWithClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// The text in a hidden text area, selected and copied. Its value is text.
function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.left = '-9999px';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
