/**
 * Conversations and files (docs/product.md#conversations, #files), in two browser contexts: the
 * client posts with two attachments, the admin finds it unread in /admin/conversations, replies and
 * writes an internal note; the client gets the reply and never the note — in the page, in the
 * route's `.data` and in the mail the SMTP server received; another client gets 404 for the thread,
 * the files tab and each file; the proposal's ambassador sees status events only. Then the same
 * without JavaScript, the refused uploads (nothing stored), downloads and Range.
 */
import http from "node:http";
import type { APIRequestContext, Browser } from "@playwright/test";
import { adminPage, expect, hydrated, newUserPage, registerAmbassador, registerClient, test, waitForMail } from "./fixtures";

const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1e0f3d80000000049454e44ae426082",
  "hex",
);

/** An ambassador, the client they referred (verified) and an ambassador proposal for that client. */
async function setUp(browser: Browser, sql: import("pg").Pool, opts: { javaScriptEnabled?: boolean } = {}) {
  const ambassadorPage = await newUserPage(browser);
  const ambassador = await registerAmbassador(ambassadorPage);
  const clientPage = await newUserPage(browser, opts);
  const client = await registerClient(clientPage, { referralCode: ambassador.referralCode, businessName: `Thread Co ${Date.now()}` });
  await sql.query(`update "user" set email_verified = true where email = $1`, [client.email]);
  const project = `Thread project ${Date.now()}`;
  const { rows } = await sql.query(
    `insert into proposal (client_id, ambassador_id, client_email, source, status, project_name, project_details)
     select c.id, a.id, c.email, 'ambassador', 'submitted', $3, 'A brief' from "user" c, "user" a where c.email = $1 and a.email = $2 returning id`,
    [client.email, ambassador.email, project],
  );
  return { ambassadorPage, ambassador, clientPage, client, project, id: rows[0].id as number };
}

async function counts(sql: import("pg").Pool) {
  const { rows } = await sql.query(
    `select (select count(*)::int from file) as files, (select count(*)::int from file_object) as objects,
            (select count(*)::int from file_object_chunk) as chunks, (select count(*)::int from proposal_message) as messages`,
  );
  return rows[0] as { files: number; objects: number; chunks: number; messages: number };
}

/** Posts the composer's multipart form to the upload endpoint as the page's user. */
function postMessage(request: APIRequestContext, id: number, text: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  // Several files under one name go through FormData.
  const form = new FormData();
  form.append("text", text);
  for (const file of files) form.append("files", new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  return request.post(`/proposals/${id}/messages`, { multipart: form });
}

test("client and admin talk in two browser contexts; the note never reaches the client; others get 404", async ({ browser, sql }) => {
  test.setTimeout(120_000);
  const { ambassadorPage, clientPage, client, project, id } = await setUp(browser, sql);
  const stamp = Date.now();
  const question = `Can the contact page have a map? ${stamp}`;
  const reply = `Yes, see https://maps.example.com/${stamp}`;
  const note = `NOTE-SECRET-${stamp} margin is thin`;

  // Client: the thread on their proposal page; posts with two attachments, without a reload.
  await clientPage.goto(`/proposals/${id}`);
  await hydrated(clientPage);
  await clientPage.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await clientPage.getByLabel("Message", { exact: true }).fill(question);
  await clientPage.getByLabel("Attach files").setInputFiles([
    { name: "brief.pdf", mimeType: "application/pdf", buffer: PDF },
    { name: "logo.png", mimeType: "image/png", buffer: PNG },
  ]);
  await clientPage.getByRole("button", { name: "Send message" }).click();
  const posted = clientPage.getByRole("article", { name: `Message from ${client.businessName}` });
  await expect(posted).toContainText(question);
  await expect(posted.getByRole("link", { name: /brief\.pdf/ })).toBeVisible();
  await expect(posted.getByRole("link", { name: /logo\.png/ })).toBeVisible();
  expect(await clientPage.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

  // Admin: the header badge and the inbox show it unread; opening it clears the badge.
  const admin = await adminPage(browser);
  await admin.goto("/admin/conversations");
  await expect(admin.getByTestId("nav-unread").first()).toBeVisible();
  await expect(admin.getByTestId(`inbox-unread-${id}`)).toHaveText(/1\s*unread/);
  await admin.getByRole("link", { name: project }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/proposals/${id}`));
  await expect(admin.getByTestId("new-divider")).toBeVisible();
  await expect(admin.getByText(question)).toBeVisible();
  await admin.goto("/admin/conversations");
  await expect(admin.getByTestId(`inbox-unread-${id}`)).toHaveCount(0);

  // Admin replies, then writes an internal note.
  await admin.goto(`/admin/proposals/${id}`);
  await hydrated(admin);
  await admin.getByLabel("Message", { exact: true }).fill(reply);
  await admin.getByRole("button", { name: "Send message" }).click();
  await expect(admin.getByRole("article").filter({ hasText: reply })).toBeVisible();
  await admin.getByLabel("Internal note (agency only)").check();
  await admin.getByLabel("Internal note (only the agency sees it)").fill(note);
  await admin.getByRole("button", { name: "Save internal note" }).click();
  await expect(admin.getByTestId("internal-note").filter({ hasText: note })).toBeVisible();
  // A status change for the ambassador's view.
  await admin.getByLabel(`Status of ${project}`).selectOption("planning");
  await admin.getByRole("button", { name: `Save new status — ${project}` }).click();
  await expect(admin.getByText(/is now “Planning”/)).toBeVisible();

  // Client: the reply, never the note — page, .data, mail.
  await clientPage.goto(`/proposals/${id}`);
  await expect(clientPage.getByText(reply)).toBeVisible();
  await expect(clientPage.getByRole("link", { name: `https://maps.example.com/${stamp}` })).toHaveAttribute("rel", /noopener/);
  expect(await clientPage.content()).not.toContain("NOTE-SECRET");
  const data = await clientPage.request.get(`/proposals/${id}.data`);
  expect(data.status()).toBe(200);
  const dataText = await data.text();
  expect(dataText).toContain(reply);
  expect(dataText).not.toContain("NOTE-SECRET");
  expect(await (await clientPage.request.get(`/proposals/${id}/files`)).text()).not.toContain("NOTE-SECRET");
  const mail = await waitForMail((m) => (m.text ?? "").includes(reply) && JSON.stringify(m.to).includes(client.email));
  expect(mail.text).not.toContain("NOTE-SECRET");
  expect(String(mail.html)).not.toContain("NOTE-SECRET");
  expect(mail.text).toContain(`/proposals/${id}#conversation`);

  // Another client: 404 for the thread, the files tab and each file.
  const fileIds = (await sql.query(`select id from file where proposal_id = $1 order by id`, [id])).rows.map((r) => r.id as number);
  expect(fileIds).toHaveLength(2);
  const other = await newUserPage(browser);
  await registerClient(other);
  for (const path of [
    `/proposals/${id}`,
    `/proposals/${id}/files`,
    `/proposals/${id}.data`,
    ...fileIds.map((f) => `/proposals/${id}/files/${f}`),
  ]) {
    const response = await other.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(404);
    const body = await response.text();
    expect(body).not.toContain(question);
  }
  const refused = await postMessage(other.request, id, "hijack", []);
  expect(refused.status()).toBe(404);

  // The ambassador: status events only.
  const view = await ambassadorPage.goto(`/ambassador/proposals/${id}`);
  expect(view?.status()).toBe(200);
  await expect(
    ambassadorPage.getByTestId("system-event").filter({ hasText: "changed the status from Submitted to Planning" }),
  ).toBeVisible();
  const html = await ambassadorPage.content();
  expect(html).not.toContain(question);
  expect(html).not.toContain(reply);
  expect(html).not.toContain("brief.pdf");
  expect((await ambassadorPage.request.get(`/proposals/${id}`, { maxRedirects: 0 })).status()).toBe(302);
  for (const p of [admin, other, clientPage, ambassadorPage]) await p.context().close();
});

test("the same conversation without JavaScript: plain forms, redirects, the text kept on refusal", async ({ browser, sql }) => {
  test.setTimeout(120_000);
  const { clientPage, ambassadorPage, id } = await setUp(browser, sql, { javaScriptEnabled: false });
  const stamp = Date.now();
  await clientPage.goto(`/proposals/${id}`);
  // Too long: refused with the limit, the text kept.
  const tooLong = `${"x".repeat(10_001)}${stamp}`;
  await clientPage.getByLabel("Message", { exact: true }).fill(tooLong);
  await clientPage.getByRole("button", { name: "Send message" }).click();
  await expect(clientPage.getByRole("alert").filter({ hasText: "at most 10,000 characters" })).toBeVisible();
  await expect(clientPage.getByLabel("Message", { exact: true })).toHaveValue(tooLong);
  // A real one with two files: posted, redirected to it.
  const question = `No-JS question ${stamp}`;
  await clientPage.getByLabel("Message", { exact: true }).fill(question);
  await clientPage.getByLabel("Attach files").setInputFiles([
    { name: "plan.pdf", mimeType: "application/pdf", buffer: PDF },
    { name: "shot.png", mimeType: "image/png", buffer: PNG },
  ]);
  await clientPage.getByRole("button", { name: "Send message" }).click();
  await expect(clientPage).toHaveURL(new RegExp(`/proposals/${id}#message-\\d+$`));
  await expect(
    clientPage
      .getByRole("article")
      .filter({ hasText: question })
      .getByRole("link", { name: /plan\.pdf/ }),
  ).toBeVisible();

  const admin = await adminPage(browser, { javaScriptEnabled: false });
  await admin.goto(`/admin/proposals/${id}`);
  await expect(admin.getByText(question)).toBeVisible();
  const reply = `No-JS reply ${stamp}`;
  await admin.getByLabel("Message", { exact: true }).fill(reply);
  await admin.getByRole("button", { name: "Send message" }).click();
  await expect(admin.getByRole("article").filter({ hasText: reply })).toBeVisible();
  const note = `NOJS-NOTE-${stamp}`;
  await admin.getByLabel("Internal note (agency only)").check();
  await admin.getByLabel("Message", { exact: true }).fill(note);
  await admin.getByRole("button", { name: "Send message" }).click();
  await expect(admin.getByTestId("internal-note").filter({ hasText: note })).toBeVisible();

  await clientPage.goto(`/proposals/${id}`);
  await expect(clientPage.getByRole("article").filter({ hasText: reply })).toBeVisible();
  expect(await clientPage.content()).not.toContain(note);
  const mail = await waitForMail((m) => (m.text ?? "").includes(reply));
  expect(mail.text).not.toContain(note);
  for (const p of [admin, clientPage, ambassadorPage]) await p.context().close();
});

test("an update arriving while a conversation opens keeps its New divider (the opening is not restarted)", async ({ browser, sql }) => {
  test.setTimeout(120_000);
  const { clientPage, ambassadorPage, project, id } = await setUp(browser, sql);
  const question = `Is the divider still there? ${Date.now()}`;
  expect((await postMessage(clientPage.request, id, question, [])).status()).toBe(200);
  const admin = await adminPage(browser);
  await admin.goto("/admin/conversations");
  await hydrated(admin);
  await expect(admin.locator("html")).toHaveAttribute("data-live", "open", { timeout: 10_000 });
  // The thread's data is computed (and its messages marked read) at once, but reaches the tab only
  // after another update has arrived there: the client's next message, announced in the tab.
  let held = false;
  await admin.route(
    (url) => url.pathname === `/admin/proposals/${id}.data`,
    async (route) => {
      if (held) return route.continue();
      held = true;
      const response = await route.fetch();
      expect((await postMessage(clientPage.request, id, `And one more thing ${Date.now()}`, [])).status()).toBe(200);
      await expect(admin.getByTestId("live-announcer")).toContainText("New message from", { timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.fulfill({ response });
    },
  );
  await admin.getByRole("link", { name: project }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/proposals/${id}`));
  await expect(admin.getByText(question)).toBeVisible();
  // The divider stands before the message that was new when the thread was opened (a restarted
  // opening would find it read, and put the divider before the later message, or nowhere).
  const divided = admin
    .getByRole("list", { name: "Timeline" })
    .getByRole("listitem")
    .filter({ has: admin.getByTestId("new-divider") });
  await expect(divided).toHaveCount(1);
  await expect(divided).toContainText(question);
  await expect(admin.getByText("And one more thing")).toBeVisible();
  await admin.context().close();
  for (const p of [clientPage, ambassadorPage]) await p.context().close();
});

test("refused uploads store nothing; downloads are byte-identical with the right headers; Range answers 206", async ({
  browser,
  sql,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { clientPage, ambassadorPage, id } = await setUp(browser, sql);
  const request = clientPage.request;
  const before = await counts(sql);
  const refusals: [string, { name: string; mimeType: string; buffer: Buffer }[], RegExp][] = [
    [
      "too large",
      [{ name: "huge.pdf", mimeType: "application/pdf", buffer: Buffer.concat([PDF, Buffer.alloc(25 * 1024 * 1024)]) }],
      /larger than 25 MB/,
    ],
    ["empty", [{ name: "empty.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(0) }], /is empty/],
    [
      "wrong kind",
      [
        {
          name: "invoice.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]),
        },
      ],
      /Allowed: PDF/,
    ],
    ["eleven files", Array.from({ length: 11 }, (_, i) => ({ name: `p${i}.png`, mimeType: "image/png", buffer: PNG })), /at most 10 files/],
  ];
  for (const [label, files, message] of refusals) {
    const response = await postMessage(request, id, `refused: ${label}`, files);
    expect(response.status(), label).toBe(400);
    expect((await response.json()).message, label).toMatch(message);
    expect(await counts(sql), label).toEqual(before);
  }

  // A stream cut halfway: nothing stays once the server noticed.
  const cookies = (await clientPage.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const url = new URL(`/proposals/${id}/messages`, baseURL);
  await new Promise<void>((resolve) => {
    const boundary = "----cut";
    const req = http.request(url, {
      method: "POST",
      headers: { cookie: cookies, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(5 * 1024 * 1024) },
    });
    req.on("error", () => resolve());
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\ncut\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="cut.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    req.write(Buffer.concat([PDF, Buffer.alloc(1024 * 1024)]), () => setTimeout(() => (req.destroy(), resolve()), 500));
  });
  await expect.poll(() => counts(sql), { timeout: 15_000 }).toEqual(before);

  // Hostile bodies: a declared length over the upload limit is refused before reading (413); thousands
  // of fields and a forged part header never give a 5xx and store nothing.
  const declared = await new Promise<number>((resolve) => {
    const req = http.request(url, {
      method: "POST",
      headers: { cookie: cookies, "content-type": "multipart/form-data; boundary=x", "content-length": String(300 * 1024 * 1024) },
    });
    req.on("response", (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    req.on("error", () => resolve(-1));
    req.write("--x\r\n");
  });
  expect(declared).toBe(413);
  const manyFields = new FormData();
  for (let i = 0; i < 5_000; i++) manyFields.append(`f${i}`, "x");
  manyFields.append("text", "many fields");
  const many = await request.post(`/proposals/${id}/messages`, { multipart: manyFields });
  expect(many.status()).toBeLessThan(500);
  const forged = await request.post(`/proposals/${id}/messages`, {
    headers: { "content-type": "multipart/form-data; boundary=zz" },
    data: '--zz\r\nContent-Disposition: form-data; name="files"; filename="\u0000../x.pdf"\r\n\r\n%PDF-1.4\r\n--zz--',
  });
  expect(forged.status()).toBeLessThan(500);
  expect(await counts(sql)).toEqual(before);

  // Accepted: two files, downloaded byte for byte with the right headers.
  const ok = await postMessage(request, id, "the real files", [
    { name: "../../etc/brief\u202Egnp.pdf", mimeType: "application/octet-stream", buffer: PDF },
    { name: "logo.png", mimeType: "application/pdf", buffer: PNG },
  ]);
  expect(ok.status()).toBe(200);
  const files = (await sql.query(`select id, name, content_type from file where proposal_id = $1 order by id`, [id])).rows;
  expect(files.map((f) => [f.name, f.content_type])).toEqual([
    ["briefgnp.pdf", "application/pdf"],
    ["logo.png", "image/png"],
  ]);
  for (const [file, bytes] of [
    [files[0], PDF],
    [files[1], PNG],
  ] as const) {
    const response = await request.get(`/proposals/${id}/files/${file.id}`);
    expect(response.status()).toBe(200);
    expect(Buffer.compare(await response.body(), bytes)).toBe(0);
    const headers = response.headers();
    expect(headers["content-type"]).toBe(file.content_type);
    expect(headers["content-disposition"]).toMatch(new RegExp(`^attachment; filename="${file.name.replace(".", "\\.")}"`));
    expect(headers["content-length"]).toBe(String(bytes.length));
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["accept-ranges"]).toBe("bytes");
  }
  const ranged = await request.get(`/proposals/${id}/files/${files[0].id}`, { headers: { Range: "bytes=5-14" } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()["content-range"]).toBe(`bytes 5-14/${PDF.length}`);
  expect(Buffer.compare(await ranged.body(), PDF.subarray(5, 15))).toBe(0);
  expect((await request.get(`/proposals/${id}/files/${files[0].id}`, { headers: { Range: `bytes=${PDF.length}-` } })).status()).toBe(416);
  // The ambassador cannot reach a file either (their area's guard sends them home).
  expect((await ambassadorPage.request.get(`/proposals/${id}/files/${files[0].id}`, { maxRedirects: 0 })).status()).toBe(302);
  for (const p of [clientPage, ambassadorPage]) await p.context().close();
});

test("message mails are switched off in the account's notifications; ambassadors have no such choice", async ({ page, browser, sql }) => {
  const client = await registerClient(page);
  await page.goto("/account/profile");
  const box = page.getByRole("checkbox", { name: /E-mail me about new messages/ });
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByRole("status").filter({ hasText: "saved" })).toHaveText("Preferences saved.");
  await expect(box).not.toBeChecked();
  const { rows } = await sql.query(`select notify_messages, notify_updates from "user" where email = $1`, [client.email]);
  expect(rows).toEqual([{ notify_messages: false, notify_updates: true }]);
  const ambassador = await newUserPage(browser);
  await registerAmbassador(ambassador);
  await ambassador.goto("/account/profile");
  await expect(ambassador.getByRole("checkbox", { name: /E-mail me about updates/ })).toBeVisible();
  await expect(ambassador.getByRole("checkbox", { name: /new messages/ })).toHaveCount(0);
  await ambassador.context().close();
});
