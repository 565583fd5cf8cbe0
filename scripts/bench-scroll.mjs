// npm run bench:scroll: how smoothly the dashboard's closed history scrolls (issue 9), in
// Debian's headless Chromium against the built server, with 10,000 closed operations and,
// in the same run and the same browser, a short history as the baseline. Writes its section
// of docs/benchmarks.md.
//
// Per viewport (desktop; 360 px with the CPU throttled 4x, the phone case) and per history,
// the list goes from top to bottom and back three ways: a mouse-wheel gesture at a steady
// speed (Chrome's own synthetic scroll gesture; on the way down the further pages load as
// they do for a user), Page Down / Page Up on the focused list, and End / Home. Meanwhile
// the page records each animation frame's delta and whether the list moved, the long tasks
// and the rows in the document; Chrome's counters give the main thread's script, style and
// layout time.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  accountMaker,
  bundleServerScript,
  percentile,
  root,
  runNode,
  serverEnv,
  startServer,
  stopServer,
  writeBenchSection,
} from './bench-support.mjs';

const historySize = Number(process.env.BENCH_SCROLL_ROWS ?? 10_000);
const baselineSize = Number(process.env.BENCH_SCROLL_BASELINE_ROWS ?? 50);
/** The wheel gesture's speed in px/s: a brisk fling, a list height every two frames or so. */
const wheelSpeed = Number(process.env.BENCH_SCROLL_SPEED ?? 20_000);
/** Page Down presses at the most from the top (and as many Page Up back). */
const pageKeyPresses = Number(process.env.BENCH_SCROLL_PAGE_KEYS ?? 30);
/** A pass repeats until it gave this many frames (30 times at the most). */
const minFrames = Number(process.env.BENCH_SCROLL_MIN_FRAMES ?? 300);
const viewports = [
  { name: 'desktop 1280×900', width: 1280, height: 900, cpuThrottling: 1 },
  { name: '360×740, CPU 4× slower', width: 360, height: 740, cpuThrottling: 4 },
].filter((viewport) => viewport.width <= Number(process.env.BENCH_SCROLL_MAX_WIDTH ?? Infinity));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const password = 'BenchScroll1234';
const listName = 'Operaciones cerradas';

const serverEntry = path.join(root, 'apps/server/dist/main.js');
for (const built of [serverEntry, path.join(root, 'apps/web/dist/index.html')]) {
  await fs.access(built).catch(() => {
    throw new Error(`${built} is missing: run "npm run build" first`);
  });
}
const seedScript = await bundleServerScript('bench-live-seed.ts', 'bench-live-seed.js');

const env = (dataDir) =>
  serverEnv(dataDir, {
    TOKEN_SECRET: 'bench-scroll-pepper-0123456789abcdef0123',
    SEED_DEMO: 'false',
    // The robot stays out of the way: no warm-up, and these users' robots are off.
    ROBOT_WARM_UP_MS: '0',
  });

/** A user made as users are: registered, then confirmed through the link mailed (decision 085). */
async function register(url, dataDir, email) {
  await accountMaker(
    url,
    dataDir,
  )({
    name: 'Bench',
    last_name: 'Scroll',
    email,
    password,
    confirm_password: password,
    accept_terms: true,
    accept_privacy: true,
  });
}

// In the page ---------------------------------------------------------------------------
/* global window, requestAnimationFrame -- the functions below run in Chromium (evaluate) */

/**
 * Records each animation frame's delta, and counts it as a scrolling frame when the list
 * moved in it or in the frame before (whose layout and paint it carries); the long tasks;
 * the most rows the list held. `stop()` hands them over.
 */
function installProbe(list) {
  const frames = [];
  const longTasks = [];
  let mostRows = 0;
  let running = true;
  let lastTime;
  let lastTop = list.scrollTop;
  let movedBefore = false;
  const observer = new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const tick = (time) => {
    if (!running) return;
    const top = list.scrollTop;
    const moved = top !== lastTop;
    if (lastTime !== undefined && (moved || movedBefore)) frames.push(time - lastTime);
    lastTime = time;
    lastTop = top;
    movedBefore = moved;
    mostRows = Math.max(mostRows, list.querySelectorAll('[data-index]').length);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__scrollProbe = {
    stop() {
      running = false;
      for (const entry of observer.takeRecords()) longTasks.push(entry.duration);
      observer.disconnect();
      return { frames, longTasks, mostRows };
    },
  };
}

/** Resolves once the list has not moved for five frames: where it is, what it shows. */
function settledPosition(list) {
  return new Promise((resolve) => {
    let still = 0;
    let lastTop = list.scrollTop;
    const deadline = performance.now() + 10_000;
    const tick = (time) => {
      still = list.scrollTop === lastTop ? still + 1 : 0;
      lastTop = list.scrollTop;
      if (still < 5 && time < deadline) {
        requestAnimationFrame(tick);
        return;
      }
      const indexes = Array.from(list.querySelectorAll('[data-index]'), (row) =>
        Number(row.getAttribute('data-index')),
      );
      resolve({
        top: list.scrollTop,
        bottom: list.scrollHeight - list.clientHeight,
        height: list.clientHeight,
        lastIndex: Math.max(-1, ...indexes),
      });
    };
    requestAnimationFrame(tick);
  });
}

/** The median frame delta of an idle second: the display's refresh interval. */
function idleFrameInterval() {
  return new Promise((resolve) => {
    const deltas = [];
    let last;
    const tick = (time) => {
      if (last !== undefined) deltas.push(time - last);
      last = time;
      if (deltas.length < 60) requestAnimationFrame(tick);
      else resolve(deltas.sort((a, b) => a - b)[30]);
    };
    requestAnimationFrame(tick);
  });
}

// In Node -------------------------------------------------------------------------------

const atBottom = (position, rows) =>
  position.top >= position.bottom - 1 && position.lastIndex >= rows - 1;
const atTop = (position) => position.top <= 0;

/**
 * Moves the list with `step(position)` until `arrived(position, steps)`, looking where it is after
 * each step. At the end of the loaded rows, going down, it waits for the next page as a user
 * would. Resolves with the steps taken.
 */
async function travel(page, list, step, arrived, rows) {
  let steps = 0;
  let stalledSince = null;
  for (;;) {
    const position = await list.evaluate(settledPosition);
    if (arrived(position, steps)) return steps;
    if (position.top >= position.bottom - 1 && position.lastIndex < rows - 1) {
      stalledSince ??= Date.now();
      if (Date.now() - stalledSince > 30_000) throw new Error('the next page never came');
      await page.waitForTimeout(20);
      continue;
    }
    stalledSince = null;
    await step(position);
    steps += 1;
  }
}

function frameStats(deltas, interval) {
  const sorted = [...deltas].sort((a, b) => a - b);
  // A frame that took k refresh intervals stands for k - 1 frames the display did not get.
  let expected = 0;
  let dropped = 0;
  for (const delta of deltas) {
    const intervals = Math.max(1, Math.round(delta / interval));
    expected += intervals;
    dropped += intervals - 1;
  }
  return {
    frames: deltas.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    dropped: expected ? dropped / expected : 0,
  };
}

async function chromeCounters(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map(({ name, value }) => [name, value]));
}

async function measureHistory(browser, url, viewport, email, rows) {
  const context = await browser.newContext({
    baseURL: url,
    viewport: { width: viewport.width, height: viewport.height },
    locale: 'es',
  });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/dashboard');
    // Below 900 px the closed operations are a tab of the dashboard.
    if (viewport.width < 900) await page.getByRole('tab', { name: 'Cerradas' }).click();
    const list = page.getByRole('region', { name: listName });
    await list.locator('[data-index]').first().waitFor();
    await list.scrollIntoViewIfNeeded();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: viewport.cpuThrottling });
    // Let the dashboard's first requests and renders settle before anything is measured.
    await page.waitForTimeout(1500);
    const interval = await page.evaluate(idleFrameInterval);
    const box = await list.boundingBox();
    const x = Math.round(box.x + box.width / 2);
    const y = Math.round(box.y + box.height / 2);
    await page.mouse.move(x, y);

    // One gesture goes to the end of what is loaded (and a list height on), 20,000 px at most.
    const wheel = (direction) => (position) => {
      const left = direction > 0 ? position.bottom - position.top : position.top;
      const distance = Math.min(20_000, Math.ceil(left + position.height));
      return cdp.send('Input.synthesizeScrollGesture', {
        x,
        y,
        yDistance: -direction * distance,
        speed: wheelSpeed,
        gestureSourceType: 'mouse',
        preventFling: true,
      });
    };
    const key = (name) => () => page.keyboard.press(name);
    const down = (position) => atBottom(position, rows);
    const passes = [
      {
        name: 'wheel',
        legs: [
          { step: wheel(1), arrived: down },
          { step: wheel(-1), arrived: atTop },
        ],
      },
      {
        name: `Page Down ×${pageKeyPresses} / Page Up`,
        keyboard: true,
        legs: [
          {
            step: key('PageDown'),
            arrived: (position, steps) => down(position) || steps >= pageKeyPresses,
          },
          { step: key('PageUp'), arrived: atTop },
        ],
      },
      {
        name: 'End / Home',
        keyboard: true,
        legs: [
          { step: key('End'), arrived: down },
          { step: key('Home'), arrived: atTop },
        ],
      },
    ];
    const results = [];
    for (const pass of passes) {
      if (pass.keyboard) await list.focus();
      const deltas = [];
      const longTasks = [];
      const presses = pass.legs.map(() => []);
      let mostRows = 0;
      let cycles = 0;
      const before = await chromeCounters(cdp);
      const started = Date.now();
      while (cycles === 0 || (deltas.length < minFrames && cycles < 30)) {
        for (const [index, leg] of pass.legs.entries()) {
          await list.evaluate(installProbe);
          const steps = await travel(page, list, leg.step, leg.arrived, rows);
          const probe = await page.evaluate(() => window.__scrollProbe.stop());
          deltas.push(...probe.frames);
          longTasks.push(...probe.longTasks);
          mostRows = Math.max(mostRows, probe.mostRows);
          presses[index].push(steps);
        }
        cycles += 1;
      }
      const after = await chromeCounters(cdp);
      const perFrame = (name) => ((after[name] - before[name]) * 1000) / Math.max(1, deltas.length);
      results.push({
        pass: pass.name,
        cycles,
        seconds: (Date.now() - started) / 1000,
        presses,
        ...frameStats(deltas, interval),
        deltas,
        longTasks: longTasks.length / cycles,
        longTaskMs: longTasks.reduce((sum, duration) => sum + duration, 0) / cycles,
        scriptMsPerFrame: perFrame('ScriptDuration'),
        layoutMsPerFrame: perFrame('LayoutDuration') + perFrame('RecalcStyleDuration'),
        layoutsPerFrame: (after.LayoutCount - before.LayoutCount) / Math.max(1, deltas.length),
        mostRows,
      });
      const { deltas: _, ...shown } = results.at(-1);
      console.log(`${viewport.name}, ${rows} rows:`, JSON.stringify(shown));
    }
    return { interval, results };
  } finally {
    await context.close();
  }
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-scroll-'));
const long = { rows: historySize, email: 'bench-scroll-long@bench.invalid' };
const short = { rows: baselineSize, email: 'bench-scroll-short@bench.invalid' };
const measured = [];
let chromiumVersion = '';
try {
  let server = await startServer(serverEntry, env(dataDir));
  for (const user of [long, short]) await register(server.url, dataDir, user.email);
  await stopServer(server);
  // PGlite takes one process at a time: the histories are written while no server runs.
  for (const user of [long, short]) {
    await runNode(seedScript, ['trader', user.email, '0', String(user.rows)], env(dataDir));
  }
  server = await startServer(serverEntry, env(dataDir));
  const browser = await chromium.launch({
    executablePath: chromePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  chromiumVersion = browser.version();
  try {
    for (const viewport of viewports) {
      // The baseline before and after the long history, so that a neighbour's load on this
      // shared machine weighs on both alike.
      const runs = [];
      for (const user of [short, long, short]) {
        const run = await measureHistory(browser, server.url, viewport, user.email, user.rows);
        runs.push({ rows: user.rows, ...run });
      }
      measured.push({ viewport, runs });
    }
  } finally {
    await browser.close();
    await stopServer(server);
  }
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}

/** One history's passes, each pass pooled over that history's runs. */
function pooled(runs, rows) {
  const mine = runs.filter((run) => run.rows === rows);
  const interval = percentile(
    mine.map((run) => run.interval).sort((a, b) => a - b),
    50,
  );
  const sum = (list, name) => list.reduce((total, result) => total + result[name], 0);
  return mine[0].results.map((first, index) => {
    const all = mine.map((run) => run.results[index]);
    const deltas = all.flatMap((result) => result.deltas);
    const frames = sum(all, 'frames');
    const weighted = (name) =>
      all.reduce((total, result) => total + result[name] * result.frames, 0) / frames;
    return {
      pass: first.pass,
      cycles: sum(all, 'cycles'),
      presses: first.presses.map((_, leg) => Math.max(...all.flatMap((r) => r.presses[leg]))),
      ...frameStats(deltas, interval),
      deltas,
      longTasks: sum(all, 'longTasks') / all.length,
      longTaskMs: sum(all, 'longTaskMs') / all.length,
      scriptMsPerFrame: weighted('scriptMsPerFrame'),
      layoutMsPerFrame: weighted('layoutMsPerFrame'),
      layoutsPerFrame: weighted('layoutsPerFrame'),
      mostRows: Math.max(...all.map((result) => result.mostRows)),
    };
  });
}

const f1 = (value) => value.toFixed(1);
const count = (value) => value.toLocaleString('en-US');
const date = new Date().toISOString().slice(0, 10);
const lines = [
  '## History scroll (`npm run bench:scroll`)',
  '',
  `Measured ${date} on this 2-core shared machine: the built server (PGlite) and Debian's ` +
    `Chromium ${chromiumVersion}, headless with \`--disable-gpu\` (software raster), driven by ` +
    'playwright-core over CDP. ' +
    `One user has ${count(historySize)} closed operations, another ${count(baselineSize)} ` +
    '(the baseline), seeded with `apps/server/scripts/bench-live-seed.ts`; each logs in and ' +
    'moves the dashboard\'s "Operaciones cerradas" list from top to bottom and back: with the ' +
    `mouse wheel (CDP \`Input.synthesizeScrollGesture\` at ${count(wheelSpeed)} px/s; on the way ` +
    'down the further pages of 100 load as they do for a user), with Page Down ' +
    `(${pageKeyPresses} presses at the most) and Page Up, and with End and Home on the focused ` +
    `list. Each pass repeats, there and back, until it gave ${minFrames} frames (30 times at ` +
    'the most). The baseline runs before and after the long history; its figures pool both.',
  '',
  'Frames: `requestAnimationFrame` deltas of the frames in which the list moved and of the ' +
    'frame after each (it lays out and paints the move); a frame of k refresh intervals counts ' +
    "k - 1 dropped. Long tasks: PerformanceObserver 'longtask' (50 ms or more), per cycle of " +
    "the pass. Script and style + layout: Chrome's `Performance.getMetrics` counters over the " +
    'pass, per frame counted (layouts per frame above 1 means forced, synchronous layouts). ' +
    'Presses: the most gestures or key presses it took to get to the bottom / to the top. Rows: ' +
    'the most `<li>` rows the ' +
    'list held at once.',
  '',
];
for (const { viewport, runs } of measured) {
  const longPasses = pooled(runs, historySize);
  const shortPasses = pooled(runs, baselineSize);
  lines.push(
    `### ${viewport.name}`,
    '',
    '| history | pass | frames | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | dropped | long tasks (ms) per cycle | script ms / frame | style + layout ms / frame | layouts / frame | presses | rows in DOM |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const [rows, passes] of [
    [historySize, longPasses],
    [baselineSize, shortPasses],
  ]) {
    for (const pass of passes) {
      lines.push(
        `| ${count(rows)}${rows === baselineSize ? ' (baseline)' : ''} | ${pass.pass} | ${pass.frames} | ${f1(pass.p50)} | ${f1(pass.p95)} | ${f1(pass.p99)} | ${f1(pass.max)} | ${(pass.dropped * 100).toFixed(1)}% | ${f1(pass.longTasks)} (${Math.round(pass.longTaskMs)}) | ${pass.scriptMsPerFrame.toFixed(2)} | ${pass.layoutMsPerFrame.toFixed(2)} | ${pass.layoutsPerFrame.toFixed(2)} | ${pass.presses.join(' / ')} | ${pass.mostRows} |`,
      );
    }
  }
  const p95Of = (passes) =>
    percentile(
      passes.flatMap((pass) => pass.deltas).sort((a, b) => a - b),
      95,
    );
  const ratio = p95Of(longPasses) / p95Of(shortPasses);
  const perPass = longPasses
    .map((pass, index) => `${pass.pass} ${(pass.p95 / shortPasses[index].p95).toFixed(2)}`)
    .join(', ');
  lines.push(
    '',
    `**Ratio (p95 frame time, ${count(historySize)} rows / ${count(baselineSize)} rows, all ` +
      `passes): ${ratio.toFixed(2)}** (${f1(p95Of(longPasses))} ms against ` +
      `${f1(p95Of(shortPasses))} ms; refresh interval ${f1(runs[0].interval)} ms). ` +
      `Per pass: ${perPass}.`,
    '',
  );
}
const section = await writeBenchSection('scroll', lines.join('\n').trimEnd());
console.log(section);
