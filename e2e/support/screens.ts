import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from './axe';

export type ScreenLanguage = 'es' | 'pt';

/** Where the screenshots go: e2e/artifacts/screens/<width>/<lang>-<name>.png (gitignored). */
export const screensDir = path.resolve(import.meta.dirname, '../artifacts/screens');

/** The viewport each width is checked at. */
export const viewportHeights: Record<number, number> = { 360: 740, 768: 1024, 1280: 800 };

interface RouteNode {
  path?: string;
  index?: boolean;
  children?: RouteNode[];
  lazy?: unknown;
  Component?: unknown;
  element?: unknown;
}

/**
 * Every route pattern of the app's router that shows a screen (a pure redirect, such as the
 * console's index, shows none), as full paths without the language prefix: "/", "/login",
 * "/admin/users/:id", "/*". Read from the built renderer (apps/web/dist-ssr, `npm run build`),
 * which holds the very route table the browser runs.
 */
export async function screenRoutePatterns(): Promise<string[]> {
  const bundle = path.resolve(import.meta.dirname, '../../apps/web/dist-ssr/entry-server.js');
  await fs.access(bundle).catch(() => {
    throw new Error(`${bundle} is missing: run "npm run build" first`);
  });
  const { routes } = (await import(pathToFileURL(bundle).href)) as { routes: RouteNode[] };
  const patterns: string[] = [];
  const walk = (list: RouteNode[], parent: string) => {
    for (const route of list) {
      const own =
        route.path === undefined ? parent : `${parent}/${route.path}`.replace(/\/+/g, '/');
      if (route.children) {
        walk(route.children, own);
        continue;
      }
      if (route.lazy === undefined && route.Component === undefined && route.element === undefined)
        continue;
      patterns.push(own.length > 1 ? own.replace(/\/$/, '') : '/');
    }
  };
  walk(routes, '');
  return [...new Set(patterns)].sort();
}

export interface LayoutReport {
  /** documentElement.scrollWidth - clientWidth, when positive. */
  pageOverflow: number;
  /** Visible elements whose box leaves the viewport sideways (outermost ones only). */
  outside: string[];
  /** Pairs of visible interactive controls whose boxes intersect by more than 1 px. */
  overlaps: string[];
}

/**
 * Runs in the page. Elements that are not rendered, visually hidden (the 1 px clip pattern),
 * transparent, inert or hidden from assistive technology (what a modal leaves behind it) do
 * not count. An element inside a box that scrolls or clips sideways is that box's business.
 */
export function inspectLayout(): LayoutReport {
  const root = document.documentElement;
  const viewport = root.clientWidth;
  const controlSelector = [
    'a[href]',
    'button',
    'input:not([type=hidden])',
    'select',
    'textarea',
    'summary',
    '[role=button]',
    '[role=link]',
    '[role=switch]',
    '[role=tab]',
    '[role=checkbox]',
    '[role=radio]',
    '[role=menuitem]',
    '[role=option]',
    '[role=slider]',
    '[role=combobox]',
    '[tabindex]:not([tabindex="-1"])',
  ].join(',');

  const describe = (element: Element): string => {
    const parts: string[] = [];
    let current: Element | null = element;
    for (let depth = 0; current && current !== document.body && depth < 3; depth += 1) {
      let part = current.tagName.toLowerCase();
      if (current.id) part += `#${current.id}`;
      const classes = Array.from(current.classList).slice(0, 2);
      if (classes.length) part += `.${classes.join('.')}`;
      const role = current.getAttribute('role');
      if (role) part += `[role=${role}]`;
      parts.unshift(part);
      if (current.id) break;
      current = current.parentElement;
    }
    const label =
      element.getAttribute('aria-label') ??
      element.getAttribute('name') ??
      (element.textContent || '').replace(/\s+/g, ' ').trim();
    return `${parts.join(' > ')}${label ? ` "${label.slice(0, 40)}"` : ''}`;
  };

  /** Not painted: not rendered, invisible, transparent or clipped to nothing. */
  const unpainted = new Map<Element, boolean>();
  const notPainted = (element: Element): boolean => {
    const cached = unpainted.get(element);
    if (cached !== undefined) return cached;
    const style = getComputedStyle(element);
    let result =
      style.display === 'none' ||
      style.visibility === 'hidden' ||
      style.opacity === '0' ||
      // The visually-hidden pattern: clip: rect(0 0 0 0) (`clip` is read by name: deprecated).
      !['auto', ''].includes(style.getPropertyValue('clip')) ||
      style.clipPath.startsWith('inset(50%');
    if (!result && element.parentElement) result = notPainted(element.parentElement);
    unpainted.set(element, result);
    return result;
  };
  const visible = (element: Element, rect: DOMRect): boolean =>
    rect.width > 1 && rect.height > 1 && !notPainted(element);
  /** A control one can reach: painted, and not behind a modal (inert or aria-hidden). */
  const reachable = (element: Element, rect: DOMRect): boolean =>
    visible(element, rect) && !element.closest('[inert], [aria-hidden="true"]');

  /** Inside a box that scrolls or clips sideways (other than the page itself). */
  const contained = (element: Element): boolean => {
    for (let parent = element.parentElement; parent && parent !== document.body;) {
      const overflowX = getComputedStyle(parent).overflowX;
      if (overflowX !== 'visible') return true;
      parent = parent.parentElement;
    }
    return false;
  };

  const outside: string[] = [];
  const reported: Element[] = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    if (reported.some((ancestor) => ancestor.contains(element))) continue;
    const rect = element.getBoundingClientRect();
    if (rect.right <= viewport + 1 && rect.left >= -1) continue;
    if (!visible(element, rect) || contained(element)) continue;
    if (getComputedStyle(element).position === 'fixed' && rect.right <= 0) continue;
    reported.push(element);
    outside.push(
      `${describe(element)} spans ${String(Math.round(rect.left))}..${String(Math.round(rect.right))} px of ${String(viewport)}`,
    );
  }

  interface Box {
    left: number;
    top: number;
    right: number;
    bottom: number;
  }
  /**
   * The parts of an element's boxes that show: one per line for a link that wraps (its
   * bounding box would cover the next link on the line), each cut by every ancestor that
   * scrolls or clips (a virtual list's rows outside its frame are not on screen).
   */
  const shownBoxes = (element: Element): Box[] => {
    const frames: DOMRect[] = [];
    for (let parent = element.parentElement; parent && parent !== document.body;) {
      const style = getComputedStyle(parent);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible')
        frames.push(parent.getBoundingClientRect());
      parent = parent.parentElement;
    }
    return Array.from(element.getClientRects())
      .map((rect) =>
        frames.reduce<Box>(
          (box, frame) => ({
            left: Math.max(box.left, frame.left),
            top: Math.max(box.top, frame.top),
            right: Math.min(box.right, frame.right),
            bottom: Math.min(box.bottom, frame.bottom),
          }),
          { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom },
        ),
      )
      .filter((box) => box.right - box.left > 1 && box.bottom - box.top > 1);
  };
  const controls = Array.from(document.body.querySelectorAll(controlSelector))
    .filter((element) => reachable(element, element.getBoundingClientRect()))
    .map((element) => ({ element, boxes: shownBoxes(element) }))
    .filter(({ boxes }) => boxes.length > 0);
  const overlaps: string[] = [];
  for (let i = 0; i < controls.length; i += 1) {
    for (let j = i + 1; j < controls.length; j += 1) {
      const a = controls[i];
      const b = controls[j];
      if (!a || !b) continue;
      if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
      let worst = { width: 0, height: 0 };
      for (const one of a.boxes) {
        for (const other of b.boxes) {
          const width = Math.min(one.right, other.right) - Math.max(one.left, other.left);
          const height = Math.min(one.bottom, other.bottom) - Math.max(one.top, other.top);
          if (width > 1 && height > 1 && width * height > worst.width * worst.height)
            worst = { width, height };
        }
      }
      if (worst.width > 0) {
        overlaps.push(
          `${describe(a.element)} overlaps ${describe(b.element)} by ${String(Math.round(worst.width))}x${String(Math.round(worst.height))} px`,
        );
      }
    }
  }
  return { pageOverflow: Math.max(0, root.scrollWidth - viewport), outside, overlaps };
}

/** Waits until the screen has settled: a heading, no page loader, no skeleton, fonts loaded. */
export async function settled(page: Page): Promise<void> {
  await page.locator('h1, h2').first().waitFor();
  await page
    .waitForFunction(
      () =>
        !document.querySelector('.page-loader, [class*="skeleton"]') &&
        document.fonts.status === 'loaded',
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}

export interface ScreenCheck {
  name: string;
  language: ScreenLanguage;
  width: number;
}

/**
 * At each width: resizes, checks the layout, the one main heading and axe, and saves a screenshot (full page, or the
 * viewport when a modal layer is open). Resolves with the problems found, each naming the
 * screen, so one run lists every failure.
 */
export async function checkScreen(
  page: Page,
  screen: { name: string; language: ScreenLanguage; widths: readonly number[] },
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  for (const width of screen.widths) {
    const where = `${screen.language}-${screen.name} at ${String(width)} px`;
    const viewport = page.viewportSize();
    if (viewport?.width !== width) {
      await page.setViewportSize({ width, height: viewportHeights[width] ?? 800 });
      // Layout, and what measures itself (the chart), settle at the new width.
      await page.waitForTimeout(250);
    }
    // Entrance animations (a dialog fading in) end first: axe judges colours as painted.
    await page
      .waitForFunction(
        () =>
          document
            .getAnimations()
            .every(
              (animation) =>
                animation.playState !== 'running' ||
                animation.effect?.getTiming().iterations === Infinity,
            ),
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    const layout = await page.evaluate(inspectLayout);
    if (layout.pageOverflow > 0)
      problems.push(`${where}: the page scrolls sideways by ${String(layout.pageOverflow)} px`);
    for (const line of layout.outside) problems.push(`${where}: outside the viewport: ${line}`);
    for (const line of layout.overlaps) problems.push(`${where}: controls overlap: ${line}`);
    // One main heading per screen: what a screen reader's heading list starts from.
    const mainHeadings = await page.locator('h1').count();
    if (mainHeadings !== 1)
      problems.push(`${where}: ${String(mainHeadings)} h1 headings (one expected)`);
    for (const violation of await seriousAxeViolations(page)) {
      problems.push(
        `${where}: axe ${violation.id} (${String(violation.impact)}): ${violation.help}: ${violation.targets.join(', ')}`,
      );
    }
    const directory = path.join(screensDir, String(width));
    await fs.mkdir(directory, { recursive: true });
    await page.screenshot({
      path: path.join(directory, `${screen.language}-${screen.name}.png`),
      fullPage,
    });
  }
  return problems;
}
