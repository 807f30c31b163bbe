// Drives the real WebKit window of the dev binary through WebKitGTK's own
// remote inspector (WEBKIT_INSPECTOR_HTTP_SERVER), for the tests that need
// WebKit itself: MCP Apps run on Gatehouse's gatehouse-app: scheme, which
// only the window's WebKit view serves (appframe), so Chromium (helpers.mjs)
// cannot load them.
//
// The inspector speaks WebKit's Web Inspector protocol over a WebSocket;
// page commands go through Target.sendMessageToTarget. Scripts evaluated
// here run in the page's main world (the window's own page, or an app's
// frame by its execution context), as the page's own scripts would: they
// click and read the DOM as a person sees it. The dev binary enables the
// inspector (Wails' developer extras); the production binary does not.
//
// Needs: env GATEHOUSE_DEV_BIN, an X display (xvfb-run), a built frontend.

import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { distDir, freePort, outputDir, stopGroup } from './helpers.mjs';

const require = createRequire(import.meta.url);
// Node 20 has no WebSocket without a flag; playwright-core carries ws.
const WS = globalThis.WebSocket ?? require('playwright-core/lib/utilsBundle').ws;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A connection to the inspector of the window's page. */
class Inspector {
  constructor(ws) {
    this.ws = ws;
    this.nextID = 0;
    this.pending = new Map();
    this.target = '';
    this.contexts = new Map(); // execution context id -> { frameId, name, type }
    this.loading = new Set(); // ids of the frames loading a document (Page.frameStartedLoading, until frameStoppedLoading)
    this.listeners = [];
    ws.onmessage = (e) => this.#receive(JSON.parse(String(e.data)));
  }

  #receive(m) {
    if (m.method === 'Target.targetCreated' && m.params.targetInfo.type === 'page') {
      if (!m.params.targetInfo.isProvisional) this.target = m.params.targetInfo.targetId;
      return;
    }
    if (m.method === 'Target.didCommitProvisionalTarget') {
      this.target = m.params.newTargetId;
      this.contexts.clear();
      return;
    }
    if (m.method !== 'Target.dispatchMessageFromTarget') return;
    const inner = JSON.parse(m.params.message);
    if (inner.id !== undefined && this.pending.has(inner.id)) {
      const p = this.pending.get(inner.id);
      this.pending.delete(inner.id);
      if (inner.error) p.reject(new Error(`${p.method}: ${inner.error.message}`));
      else p.resolve(inner.result);
      return;
    }
    if (inner.method === 'Page.frameStartedLoading') this.loading.add(inner.params.frameId);
    if (inner.method === 'Page.frameStoppedLoading') this.loading.delete(inner.params.frameId);
    if (inner.method === 'Runtime.executionContextCreated') {
      const c = inner.params.context;
      this.contexts.set(c.id, c);
    }
    for (const l of this.listeners) l(inner);
  }

  /** Sends a command to the page; resolves with its result. */
  send(method, params = {}) {
    const id = ++this.nextID;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.ws.send(
        JSON.stringify({
          id,
          method: 'Target.sendMessageToTarget',
          params: { targetId: this.target, message: JSON.stringify({ id, method, params }) },
        }),
      );
    });
  }

  /**
   * Evaluates the body of an async function in a context (the page's main
   * world when contextId is 0) and returns its value (JSON).
   */
  async run(body, contextId = 0) {
    const params = { expression: `(async () => { ${body} })()`, returnByValue: false, emulateUserGesture: true };
    if (contextId) params.contextId = contextId;
    const r = await this.send('Runtime.evaluate', params);
    if (r.wasThrown) throw new Error(`evaluate: ${r.result.description}`);
    const done = await this.send('Runtime.awaitPromise', { promiseObjectId: r.result.objectId, returnByValue: true });
    if (done.wasThrown) throw new Error(`evaluate: ${done.result.description ?? JSON.stringify(done.result.value)}`);
    return done.result.value;
  }
}

/**
 * Starts the dev binary on a fresh data folder with its window's inspector
 * on a loopback port, and connects to the window's page. env adds to the
 * app's environment (a PATH with a stand-in browser, a language). With
 * dataDir it starts on that folder instead (Gatehouse started again), and
 * close() leaves it; close({ keepData: true }) leaves a fresh one too.
 * Returns { page, inspector, child, dataDir, logs, alive(), frame(), screenshot(), close() }.
 * page.evaluate(fn, arg) runs fn(arg) in the window's page, as Playwright's does.
 */
export async function startWindow({ env = {}, dataDir: given = '' } = {}) {
  const bin = process.env.GATEHOUSE_DEV_BIN;
  if (!bin) throw new Error('set GATEHOUSE_DEV_BIN to a dev build: go build -tags dev,webkit2_41 -o build/bin/gatehouse-dev .');
  if (!process.env.DISPLAY) throw new Error('no X display: run under xvfb-run -a');
  await stat(join(distDir, 'index.html'));
  await mkdir(outputDir, { recursive: true });
  const dataDir = given || (await mkdtemp(join(tmpdir(), 'gatehouse-e2e-window-')));
  const removeData = async () => {
    if (!given) await rm(dataDir, { recursive: true, force: true });
  };
  const [devPort, inspectorPort] = [await freePort(), await freePort()];
  const logs = [];
  const child = spawn(resolve(bin), ['-assetdir', distDir, '-devserver', `127.0.0.1:${devPort}`], {
    env: { ...process.env, ...env, GATEHOUSE_DATA_DIR: dataDir, WEBKIT_INSPECTOR_HTTP_SERVER: `127.0.0.1:${inspectorPort}` },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => logs.push(String(d)));
  child.stderr.on('data', (d) => logs.push(String(d)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const fail = async (e) => {
    await stopGroup(child);
    await removeData();
    throw new Error(`${e.message}\n${logs.join('')}`);
  };

  // The inspector lists the window's page once WebKit has loaded it.
  let socketPath = '';
  for (const deadline = Date.now() + 30_000; !socketPath; await sleep(200)) {
    if (!alive()) return fail(new Error('gatehouse exited before its window was inspectable'));
    if (Date.now() > deadline) return fail(new Error('the window was not inspectable within 30 s'));
    const html = await fetch(`http://127.0.0.1:${inspectorPort}/`).then((r) => r.text(), () => '');
    socketPath = /socket\/\d+\/\d+\/WebPage/.exec(html)?.[0] ?? '';
  }
  const ws = new WS(`ws://127.0.0.1:${inspectorPort}/${socketPath}`);
  await new Promise((res, rej) => {
    ws.onopen = res;
    ws.onerror = () => rej(new Error('could not connect to the window inspector'));
  }).catch(fail);
  const inspector = new Inspector(ws);
  for (let i = 0; i < 50 && !inspector.target; i++) await sleep(100);
  if (!inspector.target) return fail(new Error('the inspector named no page target'));
  // With Page enabled, Runtime names each frame's execution context.
  await inspector.send('Page.enable');
  await inspector.send('Runtime.enable');
  // Wails' bindings are in place once the frontend has started.
  for (const deadline = Date.now() + 30_000; ; await sleep(200)) {
    const ready = await inspector.run('return !!(window.go && window.go.app && document.querySelector("nav"));').catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) return fail(new Error('the window page never had its bindings and navigation'));
  }

  const page = {
    evaluate(fn, arg) {
      return inspector.run(`return await (${fn})(${arg === undefined ? '' : JSON.stringify(arg)});`);
    },
  };

  return {
    page,
    inspector,
    child,
    dataDir,
    logs,
    alive,
    /**
     * The execution context of the app frame whose src starts with prefix
     * (the first gatehouse-app: frame by default), once its document has
     * loaded: evaluate in it with inspector.run(body, id).
     *
     * Nothing touches the frame while it loads: when the inspector made
     * WebKit create a loading frame's script context early (Runtime.enable
     * lists every frame's), the app's first scripts sometimes ran with eval
     * allowed in spite of its policy, and later ones without: server-pdf's
     * zod chose its eval-compiled parsers, which then threw, and the app
     * never finished ui/initialize.
     */
    async frame(prefix = 'gatehouse-app://', timeout = 30_000) {
      for (const deadline = Date.now() + timeout; ; await sleep(200)) {
        const tree = await inspector.send('Page.getResourceTree').catch(() => null);
        const frames = [];
        const walk = (n) => {
          if (!n) return;
          frames.push(n.frame);
          for (const c of n.childFrames ?? []) walk(c);
        };
        walk(tree?.frameTree);
        const f = frames.find((x) => x.url.startsWith(prefix));
        if (f && !inspector.loading.has(f.id)) {
          const ctx = [...inspector.contexts.values()].filter((c) => c.frameId === f.id && c.isPageContext !== false && c.type !== 'user' && c.type !== 'internal');
          if (ctx.length) return { id: ctx[ctx.length - 1].id, frame: f };
          // WebKit reports a frame's context when it is created or when
          // Runtime is enabled: enabling it again lists those it missed.
          await inspector.send('Runtime.disable').catch(() => {});
          inspector.contexts.clear();
          await inspector.send('Runtime.enable').catch(() => {});
        }
        if (Date.now() > deadline) throw new Error(`no frame loading ${prefix} within ${timeout} ms; frames: ${frames.map((x) => x.url).join(', ')}`);
      }
    },
    /** Saves the window's page as it is drawn (test-output/NAME.png); returns the path. */
    async screenshot(name) {
      const size = await inspector.run('return [innerWidth, innerHeight];');
      const r = await inspector.send('Page.snapshotRect', { x: 0, y: 0, width: size[0], height: size[1], coordinateSystem: 'Viewport' });
      const path = join(outputDir, `${name}.png`);
      await writeFile(path, Buffer.from(r.dataURL.replace(/^data:image\/png;base64,/, ''), 'base64'));
      return path;
    },
    async close({ keepData = false } = {}) {
      try {
        ws.close();
      } catch {
        // closed
      }
      await stopGroup(child);
      if (!keepData) await removeData();
    },
  };
}
