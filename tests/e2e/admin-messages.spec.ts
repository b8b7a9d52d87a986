/**
 * The owner's contact inbox (docs/product.md#admin-messages): a message sent through the public
 * contact form appears in /admin/messages as unread; opening it marks it read; handled /
 * not handled and delete (after confirmation) work and are audited; only admins get in.
 */
import { expect, hydrated, loginAsAdmin, registerAmbassador, registerClient, test } from "./fixtures";

test.describe("admin contact inbox", () => {
  test("a contact-form message is unread in the inbox, opening marks it read, handled/unhandled and delete are audited", async ({
    page,
    sql,
  }) => {
    const marker = `Inbox e2e ${Date.now()}`;
    const sender = `Inbox Sender ${Date.now().toString(36)}`;
    await page.goto("/contact");
    await page.getByLabel("Name").fill(sender);
    await page.getByLabel("Email").fill("inbox-sender@example.org");
    await page.getByLabel("Message").fill(`${marker}\nSecond line of the message.`);
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status")).toHaveText("Message sent successfully!");
    const { rows } = await sql.query("select id from contact_message where message like $1", [`${marker}%`]);
    const id = rows[0].id as number;

    await loginAsAdmin(page);
    await page.goto("/admin");
    // "Waiting for you" counts the unread messages, a link to them.
    const unreadItem = page.getByTestId("next-unread-messages");
    await expect(unreadItem).toContainText(/[\d,]+ unread contact messages?/);
    const unreadBefore = Number(/([\d,]+) unread/.exec((await unreadItem.textContent())!)![1]!.replace(/,/g, ""));
    expect(unreadBefore).toBeGreaterThanOrEqual(1);
    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Messages" }).click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    await hydrated(page);

    // Search by text finds it; it is marked unread and not handled.
    await page.getByLabel("Search by name, e-mail or text").fill(marker);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=/);
    const status = page.getByTestId(`message-status-${id}`);
    await expect(status).toContainText("Unread");
    await expect(status).toContainText("Not handled");
    await expect(page.getByRole("row")).toHaveCount(2); // header + the one match

    // Open it: the whole text, a reply link with the subject, and it is now read.
    await page.getByRole("link", { name: sender, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/messages/${id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Message from ${sender}`);
    await expect(page.getByText("Second line of the message.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Reply by e-mail" })).toHaveAttribute(
      "href",
      /^mailto:inbox-sender@example\.org\?subject=Re%3A%20your%20message%20to%20/,
    );
    const read = await sql.query("select read_at, handled_at from contact_message where id = $1", [id]);
    expect(read.rows[0].read_at).not.toBeNull();

    // Handled, then not handled again.
    await page.getByRole("button", { name: "Mark handled" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Message marked handled." })).toBeVisible();
    await expect(page.getByTestId("message-status")).toHaveText("Handled");
    await page.getByRole("button", { name: "Mark not handled" }).click();
    await expect(page.getByTestId("message-status")).toHaveText("Not handled");

    // Back in the list it is no longer unread.
    await page.goto(`/admin/messages?q=${encodeURIComponent(marker)}`);
    await expect(page.getByTestId(`message-status-${id}`)).not.toContainText("Unread");

    // Delete asks first, then removes it.
    await page.getByRole("link", { name: `Delete the message from ${sender}` }).click();
    await expect(page.getByRole("alertdialog")).toContainText(`Delete the message from ${sender}?`);
    await page.getByRole("button", { name: "Yes, delete message" }).click();
    await expect(page.getByRole("status").filter({ hasText: `The message from ${sender} was deleted.` })).toBeVisible();
    await expect(page.getByText("No message matches this search.")).toBeVisible();
    expect((await sql.query("select count(*)::int as n from contact_message where id = $1", [id])).rows[0].n).toBe(0);

    const audit = await sql.query("select action, actor_email from audit_event where entity = 'contact' and entity_id = $1 order by id", [
      String(id),
    ]);
    expect(audit.rows.map((r) => r.action)).toEqual(["read", "handled", "unhandled", "deleted"]);
    expect(new Set(audit.rows.map((r) => r.actor_email))).toEqual(new Set(["admin@portfolio.test"]));
  });

  test("a client and an ambassador get their role's redirect, not the inbox", async ({ browser, baseURL }) => {
    for (const [register, home] of [
      [registerClient, "/client-dashboard"],
      [registerAmbassador, "/ambassador/dashboard"],
    ] as const) {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await register(page);
      for (const path of ["/admin/messages", "/admin/messages/1"]) {
        await page.goto(path);
        await expect(page).toHaveURL(new RegExp(`${home}$`));
        await expect(page.getByRole("heading", { name: "Messages" })).toHaveCount(0);
      }
      const post = await page.request.post("/admin/messages", { form: { intent: "delete-message", messageId: "1" }, maxRedirects: 0 });
      expect(post.status()).toBe(302);
      expect(post.headers().location).toBe(home);
      await context.close();
    }
  });
});
