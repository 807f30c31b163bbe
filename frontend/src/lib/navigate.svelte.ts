// Where the window is: the pane chosen in the left navigation and the
// settings pane's section. Every "Settings → X" sentence in the app is a link
// that calls openSettings, so they all go to the same place the same way.
// The section the person chose is kept in the data file (Go's
// SettingsService.Section), so Settings opens where they left it, also after
// a restart; the pane chosen is not kept (the window starts on Servers).

import * as api from './api';
import type { MessageKey } from './i18n.svelte';

/** The window's panes, in the order of the left navigation. */
export type Pane = 'chat' | 'servers' | 'tools' | 'history' | 'settings';

/** The settings pane's sections (Go's app.SettingsSections). */
export type SettingsSection = 'general' | 'models' | 'permissions' | 'requests' | 'apps' | 'about';

/** The settings pane's side list, in its order, each with its name. */
export const settingsSections: { id: SettingsSection; label: MessageKey }[] = [
  { id: 'general', label: 'settings.section.general' },
  { id: 'models', label: 'settings.section.models' },
  { id: 'permissions', label: 'settings.section.permissions' },
  { id: 'requests', label: 'settings.section.requests' },
  { id: 'apps', label: 'settings.section.apps' },
  { id: 'about', label: 'settings.section.about' },
];

function isSection(s: string): s is SettingsSection {
  return settingsSections.some((x) => x.id === s);
}

class Navigation {
  /** The pane shown. */
  pane = $state<Pane>('servers');
  /** The settings pane's section shown. */
  section = $state<SettingsSection>('general');
  /**
   * Set by a link (openSettings) until the settings pane has moved the focus
   * to the section's heading, so that a keyboard user goes on from there.
   */
  arriving = $state(false);
  /** Set once the section is known: read from Go, or chosen before Go answered. */
  private known = false;
  private reading: Promise<void> | null = null;

  /** Reads the section kept in the data file, once; a choice made meanwhile wins. */
  loadSection(): Promise<void> {
    this.reading ??= (async () => {
      try {
        const kept = await api.settingsSection();
        if (!this.known && isSection(kept)) this.section = kept;
      } catch {
        // outside the app, or the data file could not be read: the first section
      }
      this.known = true;
    })();
    return this.reading;
  }

  /** Shows a section of the settings pane and keeps the choice. */
  chooseSection(section: SettingsSection) {
    this.known = true;
    if (this.section === section) return;
    this.section = section;
    api.setSettingsSection(section).catch(() => {}); // not kept: it opens on the first next time
  }

  /** Back to the window's start, the kept section not read yet (tests). */
  reset() {
    this.pane = 'servers';
    this.section = 'general';
    this.arriving = false;
    this.known = false;
    this.reading = null;
  }
}

/** The window's one navigation. */
export const nav = new Navigation();

/** Goes to Settings → section: every "Settings → X" link in the app. */
export function openSettings(section: SettingsSection) {
  nav.chooseSection(section);
  nav.pane = 'settings';
  nav.arriving = true;
}

