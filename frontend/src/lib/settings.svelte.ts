// The settings store: what the settings pane shows and edits. Every setting
// is stored as soon as it is changed (there is no Save button): a number
// field when it is committed (Enter, leaving it, the arrows), after it reads
// as a whole number; Go checks the limits. A value that is refused stays in
// its field (drafts), with the sentence saying why (problems), until it is
// fixed; the stored value stays what it was meanwhile.

import * as api from './api';
import type { AppInfo, SettingsView } from './api';
import { language, loadLanguage, matchLanguage, t } from './i18n.svelte';
import { savedMark } from './saved.svelte';

/** The settings typed as numbers. */
export type NumberSetting = 'elicitationTimeoutMinutes' | 'toolCallTimeoutSeconds';

const wholeNumber: Record<NumberSetting, () => string> = {
  elicitationTimeoutMinutes: () => t('settings.error.wholeMinutes'),
  toolCallTimeoutSeconds: () => t('settings.error.wholeSeconds'),
};

/** Takes the language setting Go sent: the person's choice and the system's language. */
function followLanguage(v: api.LanguageView) {
  language.choice = v.choice;
  const system = matchLanguage(v.system);
  if (system) language.system = system;
}

class SettingsStore {
  info = $state<AppInfo | null>(null);
  values = $state<SettingsView | null>(null);
  error = $state('');
  /** What a number field holds when it is not the stored value: a refused value, kept until fixed. */
  drafts = $state<Partial<Record<NumberSetting, string>>>({});
  /**
   * Why a setting's last change was refused, by setting: a function that
   * says it in the window's language now, so that it follows a change of
   * language like every other sentence.
   */
  problems = $state<Partial<Record<keyof SettingsView, () => string>>>({});

  /** Changes run one after the other, each on top of the one before. */
  private queue: Promise<unknown> = Promise.resolve();

  async load(): Promise<void> {
    try {
      [this.info, this.values] = await Promise.all([api.appInfo(), api.getSettings()]);
      this.error = '';
    } catch (e) {
      this.error = api.errorText(e);
    }
  }

  /**
   * Takes the language setting (from the page Go served, else read from
   * Go) and loads its catalogue. main.ts waits for it before the window's
   * first paint, so that the window opens in the person's language; outside
   * the app (no core) it keeps navigator.language.
   */
  async readLanguage(fromPage?: api.LanguageView): Promise<void> {
    try {
      followLanguage(fromPage ?? (await api.getLanguage()));
    } catch {
      // no core: the system's language as the webview reports it
    }
    await loadLanguage(language.wanted);
  }

  /** Follows the person's changes of the language (readLanguage read it at start); returns the unsubscribe. */
  startLanguage(): () => void {
    return api.onLanguage(followLanguage);
  }

  /** Changes the language at once (the window re-renders) and stores the choice: '' follows the system. */
  async setLanguage(choice: string): Promise<void> {
    const before = language.choice;
    language.choice = choice;
    try {
      await api.setLanguage(choice);
    } catch (e) {
      language.choice = before;
      throw e;
    }
  }

  /**
   * Stores one setting, the others as they are stored. Resolves true when
   * Go stored it (the page shows "Saved" next to it), false when Go refused
   * it: problems says why and the stored value stays.
   */
  change<K extends keyof SettingsView>(field: K, value: SettingsView[K]): Promise<boolean> {
    return this.enqueue(() => this.store(field, value));
  }

  /**
   * Stores what a number field holds once the person commits it. Text that
   * is not a whole number is not sent; it stays in the field with a
   * sentence. The stored value again, after a refused one, only clears the
   * sentence. Resolves true when a new value was stored.
   */
  commitNumber(field: NumberSetting, text: string): Promise<boolean> {
    return this.enqueue(async () => {
      if (!this.values) return false;
      const trimmed = text.trim();
      if (!/^\d+$/.test(trimmed)) {
        this.drafts[field] = text;
        this.problems[field] = wholeNumber[field];
        return false;
      }
      const n = Number(trimmed);
      if (n === this.values[field]) {
        delete this.drafts[field];
        delete this.problems[field];
        return false;
      }
      const stored = await this.store(field, n);
      if (stored) delete this.drafts[field];
      else this.drafts[field] = text;
      return stored;
    });
  }

  private async store<K extends keyof SettingsView>(field: K, value: SettingsView[K]): Promise<boolean> {
    if (!this.values) return false;
    const next = { ...this.values, [field]: value };
    try {
      await api.saveSettings(next);
    } catch (e) {
      this.problems[field] = () => api.errorText(e);
      return false;
    }
    this.values = next;
    delete this.problems[field];
    savedMark.show(field);
    return true;
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step, step);
    this.queue = run.catch(() => {});
    return run;
  }
}

export const settings = new SettingsStore();
