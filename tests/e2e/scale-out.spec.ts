/**
 * Two app instances on one PostgreSQL database: a session made on one
 * works on the other, the outbox sends each mail once, and rate limits (contact form, sign-in
 * failures) count across both.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { request as playwrightRequest } from "@playwright/test";
import { startAppServer } from "./global-setup";
import { PASSWORD, expect, receivedMails, test, uniqueEmail, uniqueIp } from "./fixtures";

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
        const response = await sender.post(`${base}/contact`, {
          form: { user_name: `Sender ${i}`, user_email: "s@example.org", message: `${marker} #${i}` },
        });
        statuses.push(response.status());
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      await sender.dispose();

      // Sign-in failures count across both too: one address guessing one account alternately on
      // A and B is slowed down after the account's 5th failure, on either instance; the owner,
      // from another address, still signs in on both.
      const guesser = await playwrightRequest.newContext({ extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
      const guesses: number[] = [];
      // The delay starts at 1 s and doubles per failure: a slow machine may need a few more tries.
      for (let i = 0; i < 12 && guesses.at(-1) !== 429; i++) {
        const base = i % 2 === 0 ? a : b.baseUrl;
        guesses.push((await guesser.post(`${base}/login`, { form: { email, password: `wrong-${i}-pass` }, maxRedirects: 0 })).status());
      }
      expect(guesses.length).toBeGreaterThanOrEqual(6);
      expect(guesses.slice(0, -1).every((status) => status === 400)).toBe(true);
      expect(guesses.at(-1)).toBe(429);
      await guesser.dispose();
      const owner = await playwrightRequest.newContext({ extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
      for (const base of [a, b.baseUrl]) {
        const signedIn = await owner.post(`${base}/login`, { form: { email, password: PASSWORD }, maxRedirects: 0 });
        expect(signedIn.status()).toBe(302);
      }
      await owner.dispose();

      // Both instances run the mail queue (one job per mail, ADR 019): each mail is delivered exactly once.
      const count = async () => (await receivedMails()).filter((mail) => (mail.text ?? "").includes(marker)).length;
      await expect.poll(count, { timeout: 15_000 }).toBe(5);
      await new Promise((r) => setTimeout(r, 2_500)); // several more polling rounds on both instances
      expect(await count()).toBe(5);
    } finally {
      b.child.kill("SIGTERM");
      await new Promise((r) => (b.child.exitCode !== null ? r(null) : b.child.once("exit", r)));
    }
  });

  test("WEB_CONCURRENCY=2: two server processes share one port, a killed one is replaced, SIGTERM stops them all", async () => {
    const app = await startAppServer({
      DATA_DIR: path.join(process.env.E2E_TMP!, "cluster"),
      DATABASE_URL: process.env.E2E_DATABASE_URL!,
      SMTP_URL: process.env.E2E_SMTP_URL!,
      WEB_CONCURRENCY: "2",
    });
    const serverProcesses = () => {
      try {
        return execFileSync("pgrep", ["-P", String(app.child.pid), "-f", "server/main"], { encoding: "utf8" })
          .split("\n")
          .filter(Boolean)
          .map(Number);
      } catch {
        return [];
      }
    };
    try {
      await expect
        .poll(() => (app.output().match(/"process":"\d of 2","msg":"server listening on/g) ?? []).length, { timeout: 30_000 })
        .toBe(2);
      const [first, second] = serverProcesses();
      expect(serverProcesses()).toHaveLength(2);

      const client = await playwrightRequest.newContext({ extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
      const registered = await client.post(`${app.baseUrl}/register`, {
        form: { businessName: "Cluster Co", email: uniqueEmail("cluster"), phone: "1", password: PASSWORD },
      });
      expect(new URL(registered.url()).pathname).toBe("/client-dashboard");
      // Connections are handed to both processes in turn: every request is answered with the session.
      for (let i = 0; i < 6; i++) expect((await client.get(`${app.baseUrl}/client-dashboard`, { maxRedirects: 0 })).status()).toBe(200);

      process.kill(first!, "SIGKILL");
      await expect.poll(() => serverProcesses().filter((pid) => pid !== first), { timeout: 30_000 }).toHaveLength(2);
      expect(serverProcesses()).toContain(second);
      for (let i = 0; i < 6; i++) expect((await client.get(`${app.baseUrl}/client-dashboard`, { maxRedirects: 0 })).status()).toBe(200);
      await client.dispose();

      const workers = serverProcesses();
      await app.stop("SIGTERM");
      for (const pid of workers) expect(fs.existsSync(`/proc/${pid}`), `process ${pid} still running`).toBe(false);
    } finally {
      await app.stop("SIGKILL");
    }
  });
});
