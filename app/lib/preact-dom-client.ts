/**
 * `react-dom/client` of the browser build (vite.config.ts redirects it here; the server and
 * `npm run dev` use React DOM): Preact's hydrateRoot, adapted to what React Router's hydration of
 * a page rendered by React relies on. tests/e2e/portal-js.spec.ts checks that hydrating leaves the
 * server's DOM in place.
 */
import { Suspense, createElement, type ReactNode } from "preact/compat";
import { createRoot, hydrateRoot as preactHydrateRoot } from "preact/compat/client";

export { createRoot };

/**
 * Hydrates `children` into `container` like React DOM's hydrateRoot.
 *
 * 1. React Router hydrates the whole `document` (its root route renders `<html>`). Given
 *    `document`, Preact renders into `document.documentElement`, where it finds `<head>` and
 *    `<body>` but no `<html>`, so it would build a second `<html>` inside the first and drop the
 *    server's DOM. It hydrates instead into a stand-in parent whose only child is `<html>`
 *    ({@link documentContainer}).
 * 2. React lets the root itself suspend, and HydratedRouter does on its first render (it throws
 *    the promise of decoding the streamed loader data); Preact needs a Suspense boundary above a
 *    suspending component, or the promise escapes as an uncaught error and nothing hydrates. The
 *    boundary renders no DOM of its own and, while suspended during hydration, keeps the server's
 *    HTML in place.
 * 3. Preact claims existing elements in order, so the DOM must be in the order the components
 *    render: see {@link unhoistModulePreloads}.
 */
export function hydrateRoot(container: Element | Document, children: ReactNode) {
  const isDocument = container.nodeType === Node.DOCUMENT_NODE;
  if (isDocument) unhoistModulePreloads(container as Document);
  const parent = isDocument ? documentContainer(container as Document) : container;
  return preactHydrateRoot(parent as Element, createElement(Suspense, { fallback: null }, children));
}

/**
 * A parent for Preact whose only child is the document's `<html>` element (the doctype is left
 * alone). Preact reads `firstChild`, `childNodes`, `namespaceURI` and `ownerDocument` of its
 * container, keeps its tree on it, and calls `insertBefore` only for a node that is not in place
 * — which for `<html>` the document refuses, loudly, rather than nesting it.
 */
function documentContainer(document: Document) {
  return {
    nodeType: Node.ELEMENT_NODE,
    namespaceURI: document.documentElement.namespaceURI,
    ownerDocument: document,
    get firstChild() {
      return document.documentElement;
    },
    get childNodes() {
      return [document.documentElement];
    },
    insertBefore(node: Node, before: Node | null) {
      return document.insertBefore(node, before);
    },
  };
}

/**
 * React Router's `<Scripts>` (at the end of `<body>`) renders a `<link rel="modulepreload">` per
 * script of the page before its two inline scripts; React's server renderer hoists those links
 * into `<head>`. Preact does not hoist: matching `<head>` as rendered, it would take the hoisted
 * links for the root's own links (keeping the wrong elements, dropping the stylesheet) and then
 * create the preloads again in `<body>`. So they go back where the components render them,
 * before the first inline script of `<Scripts>` (the one that sets `window.__reactRouterContext`);
 * moving a preload link only re-reads an already loaded module. Once hydrated, `<Scripts>` renders
 * no links any more and they are removed, as React removes them from `<head>`.
 */
function unhoistModulePreloads(document: Document) {
  const contextScript = [...document.body.children].find(
    (e) => e.localName === "script" && e.textContent?.startsWith("window.__reactRouterContext"),
  );
  if (!contextScript) return;
  for (const link of document.head.querySelectorAll('link[rel="modulepreload"]')) document.body.insertBefore(link, contextScript);
}
