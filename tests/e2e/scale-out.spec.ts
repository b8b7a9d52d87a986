/**
 * Two app instances on one PostgreSQL database (issue #7, reliability): a session made on one
 * works on the other, the outbox sends each mail once, and rate limits count across both.
 */
import fs from "node:fs";
import path from "node:path";
import { request as playwrightRequest } from "@playwright/test";
import { simpleParser } from "mailparser";
import { startAppServer } from "./global-setup";
import { PASSWORD, expect, test, uniqueEmail, uniqueIp } from "./fixtures";

test.describe("two instances on one PostgreSQL server", () => {
  test("share sessions, the outbox and rate limits", async () => {
    const a = process.env.E2E_BASE_URL!;
    const b = await startAppServer({
      DATA_DIR: path.join(process.env.E2E_TMP!, "second-instance"),
      DATABASE_URL: process.env.E2E_DATABASE_URL!,
      SMTP_URL: process.env.E2E_SMTP_URL!,
    });
    try {
      // A session made on A works on B (cookies are per host, not per port).
      const ip = uniqueIp();
      const client = await playwrightRequest.newContext({ extraHTTPHeaders: { "x-forwarded-for": ip } });
      const email = uniqueEmail("scale");
      const registered = await client.post(`${a}/register`, { form: { businessName: "Scale Co", email, phone: "1", password: PASSWORD } });
      expect(new URL(registered.url()).pathname).toBe("/client-dashboard");
      const onB = await client.get(`${b.baseUrl}/client-dashboard`, { maxRedirects: 0 });
      expect(onB.status()).toBe(200);
      await client.post(`${b.baseUrl}/logout`);
      expect((await client.get(`${a}/client-dashboard`, { maxRedirects: 0 })).status()).toBe(302);
      await client.dispose();

      // Rate limits count across both: 5 messages alternating A/B, the 6th is refused.
      const sender = await playwrightRequest.newContext({ extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
      const marker = `scale-out ${Date.now()}`;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const base = i % 2 === 0 ? a : b.baseUrl;
        const response = await sender.post(`${base}/contact`, { form: { user_name: `Sender ${i}`, user_email: "s@example.org", message: `${marker} #${i}` } });
        statuses.push(response.status());
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      await sender.dispose();

      // Both outbox workers poll the same table: each mail is delivered exactly once.
      const mailDir = process.env.E2E_MAIL_DIR!;
      const count = async () => {
        let n = 0;
        for (const file of fs.readdirSync(mailDir)) {
          const mail = await simpleParser(fs.readFileSync(path.join(mailDir, file)));
          if ((mail.text ?? "").includes(marker)) n++;
        }
        return n;
      };
      await expect.poll(count, { timeout: 15_000 }).toBe(5);
      await new Promise((r) => setTimeout(r, 2_500)); // several more polling rounds on both instances
      expect(await count()).toBe(5);
    } finally {
      b.child.kill("SIGTERM");
      await new Promise((r) => (b.child.exitCode !== null ? r(null) : b.child.once("exit", r)));
    }
  });
});
