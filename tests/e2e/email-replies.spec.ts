/**
 * E-mail replies through the running app (docs/product.md#email-replies): with INBOUND_DOMAIN,
 * INBOUND_SMTP_PORT and INBOUND_WEBHOOK_TOKEN set, the built server listens for SMTP and takes
 * the webhook; a status-change mail carries the client's reply address; the listener is no relay;
 * a forged reply address is refused and its sender told (through the real SMTP test server).
 * and a real reply to the mail lands in the proposal's thread (its details — quoted history, files,
 * refusals — in app/features/inbound/inbound.server.test.ts).
 */
import path from "node:path";
import nodemailer from "nodemailer";
import { freePort } from "../helpers/app-server";
import { createPgDatabase, testPool } from "../helpers/test-database";
import { addressesOf, expect, newUserPage, registerClient, test, waitForMail } from "./fixtures";
import { runPgUrl, startAppServer } from "./global-setup";

const DOMAIN = "reply.portal.test";
const TOKEN = "e2e-inbound-webhook-token-0123456789";
const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

test("the app's SMTP listener and webhook: reply addresses in mails, no relay, forged addresses refused and answered", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const smtpPort = await freePort();
  // A database of its own: the reply address is made by the instance that sends the mail, and the
  // run's shared instance (no INBOUND_DOMAIN) would send this one's mails from a shared outbox.
  const database = await createPgDatabase(runPgUrl(), "e2e_replies");
  const sql = testPool(database.url);
  const app = await startAppServer({
    DATA_DIR: path.join(process.env.E2E_TMP!, `replies-${uid()}`),
    DATABASE_URL: database.url,
    SMTP_URL: process.env.E2E_SMTP_URL!,
    INBOUND_DOMAIN: DOMAIN,
    INBOUND_SMTP_PORT: String(smtpPort),
    INBOUND_WEBHOOK_TOKEN: TOKEN,
  });
  try {
    const page = await newUserPage(browser, { baseURL: app.baseUrl });
    const client = await registerClient(page);
    const project = `Reply site ${uid()}`;
    const { rows } = await sql.query(
      `insert into proposal (client_id, source, status, project_details, project_name)
       select id, 'client', 'pending', 'A site', $2 from "user" where email = $1 returning id`,
      [client.email, project],
    );
    const proposalId = rows[0].id as number;
    // The admin changes the status: the client's mail carries their own reply address.
    const admin = await newUserPage(browser, { baseURL: app.baseUrl });
    await admin.request.post("/login", { form: { email: "admin@portfolio.test", password: "admin-e2e-password" } });
    const changed = await admin.request.post("/admin/proposals", {
      form: { intent: "set-status", proposalId: String(proposalId), status: "planning" },
    });
    expect(changed.status()).toBeLessThan(400);
    const mail = await waitForMail((m) => addressesOf(m.to).includes(client.email) && (m.subject ?? "").includes(project));
    const replyTo = addressesOf(mail.replyTo);
    expect(replyTo).toHaveLength(1);
    expect(replyTo[0]).toMatch(new RegExp(`^reply\\+[a-z2-7]{60,}@${DOMAIN.replace(/\./g, "\\.")}$`));
    expect(mail.text).toContain("You can answer by replying to this e-mail");

    const smtp = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
    // No relay: only reply addresses of the domain.
    await expect(smtp.sendMail({ from: client.email, to: "someone@example.com", text: "relay?" })).rejects.toThrow(/550/);
    // A forged reply address: accepted by SMTP (so that the sender is answered, not bounced), refused, answered once.
    const forged = replyTo[0]!.replace(/reply\+(\w{10})/, "reply+aaaaaaaaaa");
    const sent = await smtp.sendMail({ from: client.email, to: forged, subject: "Re: hello", text: "Hello?" });
    expect(sent.accepted).toEqual([forged]);
    const notice = await waitForMail(
      (m) => addressesOf(m.to).includes(client.email) && (m.subject ?? "").startsWith("Your reply could not be added"),
    );
    expect(notice.headers.get("auto-submitted")).toBe("auto-replied");

    // The webhook: bearer token required, raw RFC 822 taken.
    const raw = `From: ${client.email}\r\nTo: ${forged}\r\nSubject: Re: hello\r\nMessage-ID: <${uid()}@example.com>\r\n\r\nHello again\r\n`;
    expect((await fetch(`${app.baseUrl}/webhooks/inbound-mail`, { method: "POST", body: raw })).status).toBe(401);
    const hook = await fetch(`${app.baseUrl}/webhooks/inbound-mail`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "message/rfc822" },
      body: raw,
    });
    expect(hook.status).toBe(200);
    // Told already within the hour: not told again.
    expect(await hook.json()).toEqual({ status: "refused", reason: "forged", told: false });

    // A real reply to the mail lands in the proposal's thread, as the client, marked "via e-mail".
    const reply = await smtp.sendMail({
      from: client.email,
      to: replyTo[0],
      subject: `Re: ${mail.subject}`,
      text: `Can the contact page have a map?\n\nOn Tue, Nov 24, 2026 at 10:00 AM Agency <${replyTo[0]}> wrote:\n> ${mail.subject}\n`,
    });
    expect(reply.accepted).toEqual([replyTo[0]]);
    const thread = await sql.query(`select body, via, author_role from proposal_message where proposal_id = $1`, [proposalId]);
    expect(thread.rows).toEqual([{ body: "Can the contact page have a map?", via: "email", author_role: "client" }]);
    await page.goto(`/proposals/${proposalId}`);
    await expect(page.getByRole("paragraph").filter({ hasText: "Can the contact page have a map?" })).toBeVisible();
    await expect(page.getByText(/via e-mail/i).first()).toBeVisible();
    // Closed before the server stops: an open page would keep reconnecting to it.
    await page.context().close();
    await admin.context().close();
  } finally {
    await app.stop();
    await sql.end();
    await database.drop();
  }
});
