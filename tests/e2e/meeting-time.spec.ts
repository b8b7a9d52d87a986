/**
 * One meeting-time text on the server and in the browser (docs/product.md#dates): the server
 * renders the time in the viewer's zone (from the `tz` cookie the browser sets once a page has
 * loaded; before that, the meeting's own zone), and the hydrated page shows exactly that text — no
 * flash of another zone — with JavaScript and without.
 */
import { expect, hydrated, registerClient, test } from "./fixtures";

const INSTANT = "2026-11-02T19:30:00.000Z";

test("the server and the browser write the same meeting time, in the viewer's zone once known", async ({ browser, sql }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, timezoneId: "Asia/Tokyo" });
  const page = await context.newPage();
  const client = await registerClient(page);
  const { rows } = await sql.query('select id from "user" where email = $1', [client.email]);
  await sql.query(
    "insert into meeting (user_id, starts_at, time_zone, notes, created_at) values ($1, $2, 'America/Los_Angeles', 'Zones', now())",
    [rows[0].id, INSTANT],
  );
  const time = page.locator(`time[datetime="${INSTANT}"]`);
  const serverText = async () => {
    const html = await (await page.request.get("/meetings")).text();
    return /<time dateTime="2026-11-02T19:30:00.000Z">([^<]+)<\/time>/.exec(html)?.[1];
  };

  // First visit: the viewer's zone is not known yet, so both write the meeting's own zone.
  expect(await serverText()).toBe("Nov 2, 2026, 11:30 AM PST");
  await page.goto("/meetings");
  await hydrated(page);
  await expect(time).toHaveText("Nov 2, 2026, 11:30 AM PST");

  // The browser stated its zone (cookie): from now on both write the viewer's zone.
  expect((await context.cookies()).find((c) => c.name === "tz")?.value).toBe(encodeURIComponent("Asia/Tokyo"));
  expect(await serverText()).toBe("Nov 3, 2026, 4:30 AM GMT+9");
  const seen: string[] = [];
  await page.exposeFunction("__seen", (text: string) => seen.push(text));
  await page.addInitScript(() => {
    // Records every text the <time> element shows while the page loads and hydrates.
    new MutationObserver(() => {
      const el = document.querySelector("time[datetime='2026-11-02T19:30:00.000Z']");
      if (el) (window as unknown as { __seen: (t: string) => void }).__seen(el.textContent ?? "");
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.reload();
  await hydrated(page);
  await expect(time).toHaveText("Nov 3, 2026, 4:30 AM GMT+9");
  expect([...new Set(seen)]).toEqual(["Nov 3, 2026, 4:30 AM GMT+9"]);

  // Without JavaScript the same text.
  const state = await context.storageState();
  const noJs = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, javaScriptEnabled: false, storageState: state });
  const plain = await noJs.newPage();
  await plain.goto("/meetings");
  await expect(plain.locator(`time[datetime="${INSTANT}"]`)).toHaveText("Nov 3, 2026, 4:30 AM GMT+9");
  await noJs.close();
  await context.close();
});
