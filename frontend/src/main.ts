import './app.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { guardNavigation } from './lib/links';
import { theme } from './lib/theme.svelte';
import { settings } from './lib/settings.svelte';
import { servers } from './lib/servers.svelte';
import { welcome } from './lib/welcome.svelte';
import { takeStartView } from './lib/startview';
import { closeAllApps } from './lib/api';

guardNavigation(document);
// What Go wrote into the page: the first frame shows it without asking Go.
const start = takeStartView();
// Before the first paint, so the window opens in its theme.
theme.start(start?.theme);
if (start) {
  servers.takeStart(start.servers);
  welcome.dismissed = start.welcomeDismissed;
}

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

// Go still counts the apps of the page before a reload (against their maximum): close them before any
// app of this page opens (none does before mount). Beside the language, not after it.
const leftovers = closeAllApps().catch(() => {});

// The person's language first, so that the first paint speaks it.
await settings.readLanguage(start?.language);
await leftovers;

export default mount(App, { target });
