import './app.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { guardNavigation } from './lib/links';
import { theme } from './lib/theme.svelte';
import { settings } from './lib/settings.svelte';
import { servers } from './lib/servers.svelte';
import { welcome } from './lib/welcome.svelte';
import { takeStartView } from './lib/startview';
import { closeAllApps, windowDrawn } from './lib/api';

guardNavigation(document);
// What Go wrote into the page: the first frame shows it without asking Go.
const startView = takeStartView();
// Before the first paint, so the window opens in its theme.
theme.start(startView?.theme);
if (startView) {
  servers.takeStart(startView.servers);
  welcome.dismissed = startView.welcomeDismissed;
}

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

// Go still counts the apps of the page before a reload (against their maximum): they must be closed
// before any app of this page opens (none does before mount). Go closed them as it served a page with
// a start view (app/startpage.go: the first frame waits for no call to Go); without one, ask it here.
const leftovers = startView ? Promise.resolve() : closeAllApps().catch(() => {});

// The person's language first, so that the first paint speaks it. Not a
// top-level await: that makes this module, and every chunk importing from it
// (each pane's), an async module, and WebKit then handed the Tools pane its
// chunk before the chunk had finished running (its component ran with its
// templates still undefined: an empty pane in the production window).
async function start(): Promise<void> {
  await settings.readLanguage(startView?.language);
  await leftovers;
  mount(App, { target: target! });
  // Once this frame is on the screen (the frame after it has begun), Go
  // starts the servers and its sockets (app/startup.go).
  requestAnimationFrame(() => requestAnimationFrame(() => void windowDrawn().catch(() => {})));
}
void start();
