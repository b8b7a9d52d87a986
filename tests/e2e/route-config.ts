/**
 * The app's routes, read from app/routes.ts, so that tests walking every route (access
 * matrix, hostile route parameters) cover a new route without being told.
 */
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes";

/** A route of the config: its full path pattern (e.g. `/admin/invoices/edit/:invoiceId`) and module file. */
export interface ConfiguredRoute {
  path: string;
  file: string;
  /** The role area its module lives in (routes/<area>/…), if any. */
  area?: "client" | "ambassador" | "admin" | "account";
}

function enumerate(entries: RouteConfigEntry[], parent = ""): ConfiguredRoute[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent || "/" : entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, "/") : parent;
    const area = /^routes\/(client|ambassador|admin|account)\//.exec(entry.file)?.[1] as ConfiguredRoute["area"];
    const own = entry.index || entry.path ? [{ path, file: entry.file, area }] : [];
    return [...own, ...enumerate(entry.children ?? [], path)];
  });
}

/** Every page and resource route of app/routes.ts, with its full path pattern. */
export const configuredRoutes: ConfiguredRoute[] = enumerate(routes as RouteConfigEntry[]);
