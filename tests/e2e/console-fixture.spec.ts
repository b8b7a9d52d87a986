/**
 * The suite-wide `consoleErrors` fixture (tests/e2e/fixtures.ts) fails a test on a browser
 * problem: each test below provokes one and is expected to fail (`test.fail()`), so that the
 * fixture cannot silently stop working. The last one shows that an expected problem can be allowed.
 */
import { expect, hydrated, test } from "./fixtures";

test.describe("the console-error fixture fails a test on", () => {
  test("a console error", async ({ page }) => {
    test.fail();
    await page.goto("/login");
    await page.evaluate(() => console.error("something broke"));
  });

  test("a React hydration error (the server's text changed before hydration)", async ({ browser }) => {
    test.fail();
    // A page of a context the test opened itself (not the `page` fixture): every context is watched.
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const page = await context.newPage();
    await page.addInitScript(() =>
      document.addEventListener("DOMContentLoaded", () => {
        const heading = document.querySelector("h1");
        if (heading) heading.textContent = "Not what the server rendered";
      }),
    );
    await page.goto("/login");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Not what the server rendered");
    await context.close();
  });

  test("a React hydration warning", async ({ page }) => {
    test.fail();
    await page.goto("/login");
    await page.evaluate(() =>
      console.warn("A tree hydrated but some attributes of the server rendered HTML didn't match the client properties."),
    );
  });

  test("an uncaught error", async ({ page }) => {
    test.fail();
    await page.goto("/login");
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error("uncaught");
      }),
    );
    await page.waitForTimeout(200);
  });

  test("an unhandled promise rejection", async ({ page }) => {
    test.fail();
    await page.goto("/login");
    await hydrated(page);
    await page.evaluate(() => void Promise.reject(new Error("unhandled")));
    await page.waitForTimeout(200);
  });

  test("a subresource that fails to load", async ({ page }) => {
    test.fail();
    await page.goto("/login");
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "/assets/missing.png";
      document.body.append(img);
    });
    await page.waitForResponse(/missing\.png/);
  });
});

test("an expected problem is allowed by name, and a refused navigation is no browser problem", async ({ page, consoleErrors }) => {
  consoleErrors.allow(/expected by this test/);
  await page.goto("/login");
  await page.evaluate(() => console.error("expected by this test"));
  expect((await page.goto("/no-such-page"))?.status()).toBe(404);
});

test("a request the router cancelled (an unhandled AbortError) is no uncaught error; any other rejection still is", async ({
  page,
  consoleErrors,
}) => {
  // app/lib/abort-rejections.ts: React Router leaves such a rejection when it replaces a data request
  // whose answer it was reading (issue #42).
  consoleErrors.allow(/still reported/);
  const uncaught: string[] = [];
  page.on("pageerror", (error) => uncaught.push(error.message));
  await page.goto("/login");
  await hydrated(page);
  const reported = page.waitForEvent("pageerror");
  await page.evaluate(() => {
    const controller = new AbortController();
    controller.abort();
    void Promise.reject(controller.signal.reason);
    // Reported after the AbortError's turn: once it is here, the AbortError had its chance.
    setTimeout(() => void Promise.reject(new Error("still reported")), 50);
  });
  await reported;
  expect(uncaught).toEqual(["still reported"]);
});
