/**
 * Hydration check shared by the browser tests: React's production build repairs some
 * mismatches between the server's HTML and the first client render silently (an attribute, a
 * `<head>` element), so the tests record the DOM itself while a page hydrates.
 */
import type { Page } from "@playwright/test";
import { expect, hydrated } from "./fixtures";

/**
 * Runs in the page (an init script): records, from the moment the HTML is parsed (`readyState`
 * "interactive", before any module script runs) until the root marks the document hydrated,
 * every change to the DOM, as text. An attribute or a text set to the value it already had is
 * recorded as `unchanged …` (React re-sets an input's `type`, `name` and `value` and the title's
 * text while hydrating).
 */
function recordHydrationMutations() {
  const log: string[] = [];
  (window as unknown as { __hydrationMutations: string[] }).__hydrationMutations = log;
  const name = (n: Node): string => {
    if (n.nodeType === Node.ELEMENT_NODE) {
      const e = n as Element;
      const rel = e.getAttribute("rel");
      return `<${e.localName}${rel ? ` rel=${rel}` : ""}>`;
    }
    return n.nodeType === Node.TEXT_NODE
      ? `text ${JSON.stringify(n.textContent)}`
      : n.nodeType === Node.COMMENT_NODE
        ? "comment"
        : `node ${n.nodeType}`;
  };
  let recording = false;
  let hydratedSeen = false;
  document.addEventListener("readystatechange", () => {
    if (document.readyState === "interactive") recording = true;
  });
  // React Router's route-modules script sets this global when it runs, before React renders.
  let moduleRan = false;
  let routeModules: unknown;
  Object.defineProperty(window, "__reactRouterRouteModules", {
    configurable: true,
    get: () => routeModules,
    set: (value: unknown) => {
      routeModules = value;
      moduleRan = true;
    },
  });
  const isMark = (m: MutationRecord) =>
    m.type === "attributes" && m.target === document.documentElement && m.attributeName === "data-hydrated";
  new MutationObserver((mutations) => {
    if (!recording) {
      // React Router's module script is `async`: with the scripts cached and the HTML still
      // arriving, hydration can start before parsing ends. Such a load cannot be judged.
      if (moduleRan || mutations.some(isMark)) (window as unknown as { __hydrationUnjudged: boolean }).__hydrationUnjudged = true;
      return;
    }
    for (const m of mutations) {
      // Records are delivered in order: the root's `data-hydrated` mark ends hydration, even when
      // the commit and the mark reach this callback in one batch (a busy machine).
      if (hydratedSeen) return;
      if (isMark(m)) {
        hydratedSeen = true;
        return;
      }
      const target = name(m.target);
      if (m.type === "childList") {
        m.removedNodes.forEach((n) => log.push(`removed ${name(n)} from ${target}`));
        m.addedNodes.forEach((n) => log.push(`added ${name(n)} to ${target}`));
      } else if (m.type === "attributes") {
        const now = (m.target as Element).getAttribute(m.attributeName!);
        log.push(
          `${now === m.oldValue ? "unchanged " : ""}attribute ${m.attributeName} of ${target}: ${JSON.stringify(m.oldValue)} → ${JSON.stringify(now)}`,
        );
      } else {
        const now = m.target.textContent;
        log.push(`${now === m.oldValue ? "unchanged " : ""}text of ${target}: ${JSON.stringify(m.oldValue)} → ${JSON.stringify(now)}`);
      }
    }
  }).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeOldValue: true,
    characterData: true,
    characterDataOldValue: true,
  });
}

/**
 * What hydration may do: add or remove comments (React's `<!-- -->` text separators and
 * Suspense markers) and set an attribute or a text to the value it already had (also by
 * replacing a text node with an equal one: {@link withoutReplacedTexts}). No element
 * may be added, removed or moved, no attribute or text changed. Effects of the first commit run
 * before the root's mark (children's effects first); the one that writes to the DOM is allowed.
 */
const ALLOWED = [
  /^(removed|added) comment (from|to) /,
  /^unchanged /,
  // The live-updates stream's state, set by its effect, which runs before the root's (children first).
  /^attribute data-live of <html>: null → "connecting"$/,
];

/**
 * Drops the pairs "removed text X from <e>" + "added text X to <e>": a text node replaced by one
 * with the same text (React writes a `<textarea>`'s default value that way).
 */
function withoutReplacedTexts(mutations: string[]): string[] {
  const added = new Map<string, number>();
  for (const m of mutations) {
    const hit = /^added (text ".*") to (<\w+>)$/.exec(m);
    if (hit) added.set(`${hit[1]} ${hit[2]}`, (added.get(`${hit[1]} ${hit[2]}`) ?? 0) + 1);
  }
  const replaced = new Map<string, number>();
  for (const m of mutations) {
    const hit = /^removed (text ".*") from (<\w+>)$/.exec(m);
    const key = hit ? `${hit[1]} ${hit[2]}` : "";
    if (hit && (added.get(key) ?? 0) > (replaced.get(key) ?? 0)) replaced.set(key, (replaced.get(key) ?? 0) + 1);
  }
  const budget = new Map<string, number>([...replaced].flatMap(([k, n]) => [[`removed ${k}`, n] as const, [`added ${k}`, n] as const]));
  return mutations.filter((m) => {
    const key = m.replace(/^(removed|added) (text ".*") (from|to) (<\w+>)$/, "$1 $2 $4");
    const left = budget.get(key) ?? 0;
    if (left > 0) budget.set(key, left - 1);
    return left === 0;
  });
}

/** Pages that already carry the recorder (an init script runs once per load for each time it was added). */
const recording = new WeakSet<Page>();

/**
 * Opens each of `urls` in `page`, waits for hydration and expects no DOM change beyond
 * {@link ALLOWED}, the server's stylesheet still in `<head>` and still applied. (Console errors
 * and hydration warnings fail every test through the `consoleErrors` fixture.)
 */
export async function expectCleanHydration(page: Page, urls: string[]): Promise<void> {
  if (!recording.has(page)) await page.addInitScript(recordHydrationMutations);
  recording.add(page);
  for (const url of urls) {
    let mutations: string[] = [];
    // A load that hydrated before the document was parsed is loaded again (at most 5 times).
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await page.goto(url);
      expect(response?.status(), `${url}: status`).toBe(200);
      await hydrated(page);
      const seen = await page.evaluate(() => {
        const w = window as unknown as { __hydrationMutations: string[]; __hydrationUnjudged?: boolean };
        return { log: w.__hydrationMutations, unjudged: w.__hydrationUnjudged === true };
      });
      mutations = seen.log;
      if (!seen.unjudged) break;
    }
    // React always re-sets the <title>'s text: an empty log means the recorder did not run.
    expect(mutations.length, `${url}: no mutation recorded at all — is the recorder working?`).toBeGreaterThan(0);
    expect(
      withoutReplacedTexts(mutations).filter((m) => !ALLOWED.some((a) => a.test(m))),
      `${url}: DOM changes while hydrating`,
    ).toEqual([]);
    await expectStyled(page, url);
  }
}

/**
 * The app's stylesheet (`/assets/app-<hash>.css` built, `/app/app.css` under `npm run dev`) is
 * linked once in `<head>`, loaded and applied (app.css sets the body's typeface).
 */
export async function expectStyled(page: Page, url = page.url()): Promise<void> {
  const appSheet = 'head > link[rel="stylesheet"][href*="/app"][href$=".css"]';
  await expect(page.locator(appSheet), `${url}: the stylesheet link`).toHaveCount(1);
  const rules = await page.locator(appSheet).evaluate((link: HTMLLinkElement) => link.sheet?.cssRules.length ?? 0);
  expect(rules, `${url}: the stylesheet is loaded`).toBeGreaterThan(0);
  await expect(page.locator("body"), `${url}: styled body`).toHaveCSS("font-family", /Plus Jakarta Sans/);
}
