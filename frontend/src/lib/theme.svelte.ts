// The window's look: Settings → Theme and the desktop's light or dark
// preference. app.css follows the engine's prefers-color-scheme by itself;
// this store overrides it with data-theme on the html element when the
// person chose Light or Dark, or when Go read a preference from the desktop
// that the engine cannot see (WebKitGTK does not read the freedesktop
// portal). Go sends every change (theme:changed), also the desktop's while
// the window is open.

import * as api from './api';
import type { ThemeView } from './api';

export type ThemeChoice = ThemeView['choice'];

class ThemeStore {
  choice = $state<ThemeChoice>('system');
  /** The desktop's preference as Go read it; '' when it states none Go can read. */
  system = $state<ThemeView['system']>('');
  /** Set when the theme could not be read or saved. */
  error = $state('');

  /**
   * Shows the theme (from the page Go served, else read from Go) and follows
   * changes; returns a function that stops following.
   */
  start(fromPage?: ThemeView): () => void {
    const off = api.onThemeChanged((v) => this.take(v));
    if (fromPage) {
      this.take(fromPage);
      return off;
    }
    void api
      .getTheme()
      .then((v) => this.take(v))
      .catch((e) => {
        this.error = api.errorText(e);
      });
    return off;
  }

  /** Saves the person's choice; it shows at once. Resolves true once Go stored it. */
  async choose(choice: ThemeChoice): Promise<boolean> {
    const before = this.choice;
    this.choice = choice;
    this.show();
    try {
      this.take(await api.setTheme(choice));
      return true;
    } catch (e) {
      this.choice = before;
      this.show();
      this.error = api.errorText(e);
      return false;
    }
  }

  private take(v: ThemeView): void {
    this.choice = v.choice;
    this.system = v.system;
    this.error = '';
    this.show();
  }

  /** Sets data-theme when the choice or Go's reading of the desktop decides; otherwise the engine does. */
  private show(): void {
    const root = document.documentElement;
    const decided = this.choice !== 'system' ? this.choice : this.system;
    if (decided) root.dataset.theme = decided;
    else delete root.dataset.theme;
  }
}

export const theme = new ThemeStore();
