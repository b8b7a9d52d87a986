/**
 * The router context key of the better-auth instance (set by `server/app.ts` for every
 * request), and the `{ db, auth }` shortcut account routes pass to the use-cases.
 */
import { createContext, type RouterContextProvider } from "react-router";
import { servicesContext } from "#app/context";
import type { Auth } from "./auth.server";

export const authContext = createContext<Auth>();

/** `{ db, auth }` for account use-cases. */
export function accountDeps(context: Readonly<RouterContextProvider>) {
  return { db: context.get(servicesContext).db, auth: context.get(authContext) };
}
