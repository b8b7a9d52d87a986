/**
 * Image thumbnails in a conversation (issue #41, docs/product.md#files): an attached image shows a
 * small lazy-loaded thumbnail named by the file, with its width and height set, served by the
 * file's route behind the same access check (another client gets 404 on its URL); and the
 * composer's refusal goes as soon as the user changes what it was about.
 */
import sharp from "sharp";
import { expect, hydrated, newUserPage, registerClient, test } from "./fixtures";

test("an attached image shows its thumbnail; another client gets 404 on it; an old refusal goes on the next edit", async ({
  browser,
  sql,
}) => {
  test.setTimeout(120_000);
  const page = await newUserPage(browser);
  const client = await registerClient(page, { businessName: `Thumb Co ${Date.now()}` });
  const { rows } = await sql.query(
    `insert into proposal (client_id, client_email, source, status, project_name, project_details)
     select id, email, 'client', 'submitted', 'Thumbnail project', 'A brief' from "user" where email = $1 returning id`,
    [client.email],
  );
  const id = rows[0].id as number;
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#0f766e" } })
    .png()
    .toBuffer();

  await page.goto(`/proposals/${id}`);
  await hydrated(page);
  // A refused file: the error shows next to the files, and goes when the user picks others.
  await page.getByLabel("Message", { exact: true }).fill("Here is the photo");
  await page
    .getByLabel("Attach files")
    .setInputFiles([{ name: "tool.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") }]);
  await page.getByRole("button", { name: "Send message" }).click();
  const refusal = page.getByText(/"tool\.exe" is not a kind of file we accept/);
  await expect(refusal).toBeVisible();
  await page.getByLabel("Attach files").setInputFiles([{ name: "photo.png", mimeType: "image/png", buffer: photo }]);
  await expect(refusal).toHaveCount(0);
  await page.getByRole("button", { name: "Send message" }).click();

  const thumbnail = page.getByRole("img", { name: "photo.png" });
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail).toHaveAttribute("loading", "lazy");
  await expect(thumbnail).toHaveAttribute("width", "160");
  await expect(thumbnail).toHaveAttribute("height", "120");
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
  const src = (await thumbnail.getAttribute("src"))!;
  expect(src).toMatch(new RegExp(`^/proposals/${id}/files/\\d+\\?thumb=1$`));
  const own = await page.request.get(src);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toBe("image/webp");
  expect((await own.body()).length).toBeLessThan(20_000);

  // Another client: 404 on the thumbnail's URL, as on the file itself.
  const other = await newUserPage(browser);
  await registerClient(other);
  expect((await other.request.get(src)).status()).toBe(404);
  expect((await other.request.get(src.replace("?thumb=1", ""))).status()).toBe(404);
  await other.context().close();
  await page.context().close();
});
