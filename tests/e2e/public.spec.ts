import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { projects, featuredProjects } from "../../app/content/projects";
import { owner } from "../../app/content/site";
import { rawGet } from "../helpers/raw-get";
import { expect, test } from "./fixtures";

const headerLinks = [
  ["Home", "/"],
  ["About", "/about"],
  ["Projects", "/projects"],
  ["Contact", "/contact"],
  ["Client Portal", "/login"],
] as const;

const publicPages = ["/", "/about", "/projects", "/contact", ...projects.map((p) => `/${p.slug}`)];

test.describe("public site", () => {
  for (const path of publicPages) {
    test(`${path} has the sticky header, its own title, description, Open Graph and canonical URL`, async ({ page, baseURL }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const [label, href] of headerLinks) {
        await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
      }
      await expect(page.locator("header").first()).toHaveCSS("position", "sticky");
      await expect(page).toHaveTitle(new RegExp(`\\| ${owner.name}$`));
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /\S/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}${path}`);
      await expect(page.getByRole("main")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    });
  }

  test("home: intro, buttons, three featured projects and See all projects", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByText(owner.intro)).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "View Projects" })).toHaveAttribute("href", "/projects");
    await expect(page.getByRole("main").getByRole("link", { name: "Contact", exact: true })).toHaveAttribute("href", "/contact");
    const cards = page.getByRole("main").getByRole("article");
    await expect(cards).toHaveCount(3);
    for (const [i, { title, slug, tech }] of featuredProjects().entries()) {
      // One name per project everywhere (the same title as on /projects and the case study).
      await expect(cards.nth(i).getByRole("heading")).toHaveText(title);
      await expect(cards.nth(i).getByRole("link", { name: /View Project/ })).toHaveAttribute("href", `/${slug}`);
      await expect(cards.nth(i).getByRole("list", { name: "Technologies" }).getByRole("listitem")).toHaveText(tech);
      await expect(cards.nth(i).locator("img")).toHaveAttribute("width", /\d+/);
    }
    expect(featuredProjects().map((f) => f.slug)).toEqual(["project3", "project1", "project2"]);
    await expect(page.getByRole("link", { name: "See all projects" })).toHaveAttribute("href", "/projects");
  });

  test("about: the bio", async ({ page }) => {
    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Me");
    await expect(page.getByText(owner.bio[0]!)).toBeVisible();
  });

  test("projects: four cards in the spec's order with their routes", async ({ page }) => {
    await page.goto("/projects");
    const cards = page.getByRole("main").getByRole("article");
    await expect(cards).toHaveCount(4);
    const expected = [
      ["Internship Hub", "/project1"],
      ["Kitchen Display System", "/project2"],
      ["Rental Property Management System", "/project3"],
      ["Virtual Warehouse", "/project4"],
    ];
    for (const [i, [title, href]] of expected.entries()) {
      await expect(cards.nth(i).getByRole("heading")).toHaveText(title!);
      await expect(cards.nth(i).getByRole("link", { name: /View Project/ })).toHaveAttribute("href", href!);
    }
  });

  test("contact page: e-mail and phone links, GitHub and LinkedIn", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Get In Touch");
    await expect(page.getByRole("link", { name: owner.email })).toHaveAttribute("href", `mailto:${owner.email}`);
    await expect(page.getByRole("link", { name: owner.phone.display })).toHaveAttribute("href", `tel:${owner.phone.e164}`);
    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "GitHub" })).toHaveAttribute("href", owner.github);
    await expect(main.getByRole("link", { name: "LinkedIn" })).toHaveAttribute("href", owner.linkedin);
  });

  const expectedCounts: Record<string, number> = { project1: 3, project2: 5, project3: 6, project4: 3 };
  for (const project of projects) {
    test(`${project.slug}: ${project.title} case study with ${expectedCounts[project.slug]} screenshots`, async ({ page }) => {
      await page.goto(`/${project.slug}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText(project.title);
      await expect(main.getByText(project.description)).toBeVisible();
      const images = main.getByRole("img");
      await expect(images).toHaveCount(expectedCounts[project.slug]!);
      for (let i = 0; i < expectedCounts[project.slug]!; i++) {
        const img = images.nth(i);
        await expect(img).toHaveAttribute("alt", `${project.title} screenshot ${i + 1}`);
        await expect(img).toHaveAttribute("width", /\d+/);
        await expect(img).toHaveAttribute("height", /\d+/);
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      }
      const headings = await main.getByRole("heading", { level: 2 }).allTextContents();
      expect(headings).toEqual(["The Problem", "The Solution", "Key Features", "Impact"]);
      const features = main.getByRole("region", { name: "Key Features" }).getByRole("listitem");
      await expect(features).toHaveText(project.features);
      // Summary box: role, timeline, outcome and the technologies as chips.
      const summary = main.getByRole("definition").filter({ hasText: project.role });
      await expect(summary).toHaveCount(1);
      await expect(main.getByText(project.timeline, { exact: true })).toBeVisible();
      await expect(main.getByText(project.outcome, { exact: true })).toBeVisible();
      await expect(main.getByRole("list", { name: "Technologies" }).getByRole("listitem")).toHaveText(project.tech);
      // Gallery without JavaScript: each screenshot is a link to the image itself.
      const first = main.getByRole("link", { name: `${project.title} screenshot 1 (opens the full-size image)` });
      await expect(first).toHaveAttribute("href", /^\/screenshots\/project\d-1\./);
      await expect(main.getByText(project.problem)).toBeVisible();
      await expect(main.getByText(project.solution)).toBeVisible();
      await expect(main.getByText(project.impact)).toBeVisible();
      for (const [name, href] of [
        ["GitHub", project.github],
        ["Live Site", project.live],
      ] as const) {
        const link = main.getByRole("link", { name, exact: true });
        // A project without a live address shows no "Live Site" link at all.
        if (href === null) {
          await expect(link).toHaveCount(0);
          continue;
        }
        await expect(link).toHaveAttribute("href", href);
        await expect(link).toHaveAttribute("target", "_blank");
        await expect(link).toHaveAttribute("rel", /noopener/);
      }
    });
  }

  test("the project1 impact says it was never fully completed", async ({ page }) => {
    await page.goto("/project1");
    await expect(page.getByRole("main").getByText(/never fully completed/)).toBeVisible();
  });

  test("project3 states the 75+ tenants and the 10+ year spreadsheet", async ({ page }) => {
    await page.goto("/project3");
    await expect(page.getByRole("main")).toContainText("75+ tenants");
    await expect(page.getByRole("main")).toContainText("10+ years");
  });

  test("an unknown route answers 404 with a not-found page inside the site layout", async ({ page }) => {
    const response = await page.goto("/this/page/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
  });

  test("sitemap.xml lists every public page and robots.txt points to it", async ({ request, baseURL }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    expect(sitemap.headers()["content-type"]).toContain("application/xml");
    const body = await sitemap.text();
    for (const path of publicPages) expect(body).toContain(`<loc>${baseURL}${path}</loc>`);
    const robots = await request.get("/robots.txt");
    expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test("content pages and the contact page ship no JavaScript bundle", async ({ page }) => {
    for (const path of ["/", "/about", "/projects", "/project3", "/contact"]) {
      await page.goto(path);
      expect(await page.locator("script[src], script[type=module]").count(), path).toBe(0);
    }
  });

  test("pages fit a 360 px wide screen without horizontal scrolling", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, baseURL });
    const page = await context.newPage();
    for (const path of publicPages) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await context.close();
  });

  test("content is visible for users who prefer reduced motion", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ reducedMotion: "reduce", baseURL });
    const page = await context.newPage();
    await page.goto("/project2");
    const last = page.getByRole("link", { name: "Live Site" });
    await expect.poll(() => last.evaluate((el) => getComputedStyle(el.parentElement!).opacity)).toBe("1");
    await context.close();
  });

  test("keyboard users reach the header links with a visible focus ring", async ({ page }) => {
    await page.goto("/about");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    await expect(focused).toHaveText(owner.name);
    expect(await focused.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
  });
});

test.describe("prerendered public pages", () => {
  test("are served precompressed with an ETag, and a conditional request gets 304", async ({ baseURL }) => {
    // Give the server a moment to render its pages after start.
    await expect
      .poll(async () => (await fetch(`${baseURL}/project3`, { headers: { "accept-encoding": "br" } })).headers.get("etag"), {
        timeout: 10_000,
      })
      .toMatch(/^"/);
    const response = await fetch(`${baseURL}/project3`, { headers: { "accept-encoding": "br" } });
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(await response.text()).toContain("Rental Property Management System screenshot 6");
    const etag = response.headers.get("etag")!;
    const again = await fetch(`${baseURL}/project3`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    // Pages with forms stay rendered per request.
    expect((await fetch(`${baseURL}/contact`)).headers.get("etag")).toBeNull();
  });

  test("scripts and styles are sent as precompressed at build: brotli, else gzip, else as they are; cached for a year", async ({
    baseURL,
  }) => {
    const html = await (await fetch(`${baseURL}/login`)).text();
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith(".js")) && assets.some((a) => a.endsWith(".css"))).toBe(true);
    const raw = (path: string, acceptEncoding: string) => rawGet(`${baseURL}${path}`, { "accept-encoding": acceptEncoding });
    let compressed = 0;
    for (const asset of assets) {
      const plain = await raw(asset, "identity");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      if (plain.body.length < 1024) continue; // not worth compressing (scripts/compress-assets.ts)
      compressed++;
      const br = await raw(asset, "gzip, deflate, br");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-type"]?.toLowerCase()).toBe(plain.headers["content-type"]?.toLowerCase());
      expect(br.headers.vary).toBe("Accept-Encoding");
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
      const gz = await raw(asset, "gzip");
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    }
    expect(compressed).toBeGreaterThan(3);
  });
});
