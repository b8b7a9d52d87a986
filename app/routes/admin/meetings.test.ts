/**
 * /admin/meetings' upcoming lists a page at a time (docs/product.md#meetings-admin): the page
 * number in the URL reaches the use-case, and the loader says which page it served of how many.
 */
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesContext, type AppServices } from "#app/context";
import { sessionUserContext } from "#app/features/users/session.server";
import type { SessionUser } from "#app/features/users/actor";
import { DEFAULT_PAGE_SIZE } from "#app/lib/pagination";
import { testDatabases } from "../../../tests/helpers/db";
import { insertMeeting } from "../../../tests/helpers/admin-data";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { loader } from "./meetings";

describe.each(testDatabases())("/admin/meetings on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("lists requests awaiting an answer 25 to a page, soonest first, and serves the page asked for", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const ids: number[] = [];
    for (let i = 0; i < DEFAULT_PAGE_SIZE + 2; i++)
      ids.push(await insertMeeting(t.db, { userId: client.id, startsAt: new Date(Date.now() + (i + 1) * 3_600_000) }));
    const context = new RouterContextProvider();
    context.set(servicesContext, { db: t.db } as unknown as AppServices);
    context.set(sessionUserContext, admin as SessionUser);
    const load = (query: string) => loader({ request: new Request(`http://x/admin/meetings${query}`), context, params: {} } as never);

    const first = await load("?show=awaiting");
    expect(first.items.map((m) => m.id)).toEqual(ids.slice(0, DEFAULT_PAGE_SIZE));
    expect(first.numbered).toEqual({ page: 1, pageCount: 2 });
    const second = await load("?show=awaiting&page=2");
    expect(second.items.map((m) => m.id)).toEqual(ids.slice(DEFAULT_PAGE_SIZE));
    expect(second.numbered).toEqual({ page: 2, pageCount: 2 });
    // Nothing accepted yet; a page number that is not one is page 1.
    expect(await load("?show=upcoming&page=x")).toMatchObject({ items: [], numbered: { page: 1, pageCount: 1 } });
  });
});
