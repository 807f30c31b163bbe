import './app.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { guardNavigation } from './lib/links';
import { theme } from './lib/theme.svelte';
import { settings } from './lib/settings.svelte';

guardNavigation(document);
// Before the first paint, so the window opens in its theme.
theme.start();

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

// The person's language first, so that the first paint speaks it.
await settings.readLanguage();

export default mount(App, { target });
