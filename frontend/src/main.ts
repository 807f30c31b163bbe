import './app.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { guardNavigation } from './lib/links';

guardNavigation(document);

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

export default mount(App, { target });
