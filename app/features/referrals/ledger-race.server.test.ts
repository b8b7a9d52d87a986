/**
 * Issue #36 (Money): a payment or refund recorded while the client accepts the offer must make
 * exactly one commission entry. Both paths lock the proposal row (acceptance `FOR UPDATE`, a payment
 * or refund `FOR SHARE` before its invoice: ADR 006's order), so whichever commits second sees the
 * other's write: the payment's hook sees the approval, or the acceptance's sync sees the payment.
 * Many rounds with the acceptance started at staggered moments of the money writes, on PGlite and
 * (with TEST_DATABASE_URL) on a PostgreSQL server where the transactions really run at once; later
 * refunds of everything bring the proposal's ledger back to exactly 0.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "#app/db/client.server";
import { commissionEntries } from "#app/db/schema";
import { acceptOffer } from "#app/features/agreements/acceptance.server";
import { saveOffer } from "#app/features/agreements/offers.server";
import { recordPayment, recordRefund } from "#app/features/payments/record-payment.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/admin-data";
import { siteInvoice } from "../../../tests/helpers/billing";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";

const META = { ip: "203.0.113.9", userAgent: "RaceTest/1.0", timeZone: "UTC", origin: "https://portal.example" };
/**
 * A slow moment of the database server: while on, the audit row of each payment or refund waits
 * 150 ms before it is written — right after the commission hook read the approval, before the
 * payment commits — so the acceptance gets to run in that window (the window of the lost entry).
 */
async function slowMoneyWrites(db: Database, on: boolean) {
  if (!on) return void (await db.execute(sql`drop trigger if exists race_slow_audit on audit_event`));
  await db.execute(
    sql.raw(
      `create or replace function race_slow_audit() returns trigger language plpgsql as $$ begin perform pg_sleep(0.15); return new; end $$`,
    ),
  );
  await db.execute(
    sql.raw(
      `create trigger race_slow_audit before insert on audit_event for each row when (new.action in ('payment-recorded', 'refund-recorded')) execute function race_slow_audit()`,
    ),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabases())("payment and acceptance at the same moment on %s", (name, open) => {
  const ctx = useTestServices(open, { admin: true });
  // PGlite runs one transaction at a time (a check of the outcome); the server runs them really at once.
  const batches = name === "postgres" ? 4 : 1;
  // Three transactions per proposal: at most 9 at once, within the pool of 10 connections.
  const pairs = name === "postgres" ? 3 : 2;

  it(
    "one commission entry per payment and per refund written during the acceptance; refunds reverse exactly what was earned",
    { timeout: 600_000 },
    async () => {
      const { t, s, admin } = ctx;
      const ambassador = await makeAmbassador(s);
      const client = await makeClient(s, { verified: true });
      type Outcome = { entries: Array<[number | null, string, number, number]>; total: number; count: number };
      const outcomes: Outcome[] = [];
      const expected: Outcome[] = [];

      const prepare = async (n: number) => {
        const proposalId = await insertProposal(t.db, { ambassadorId: ambassador.id, clientId: client.id, status: "pending" });
        await saveOffer(
          t.db,
          admin,
          proposalId,
          {
            projectName: `Race ${n}`,
            scope: "Build it.",
            items: [{ description: "Site", quantity: 1, unitPriceCents: 100_000 }],
            timeline: "1 week",
            deposit: { kind: "percent", value: 30 },
            validUntil: "2099-12-31",
          },
          "send",
          { cardPayments: true },
        );
        const { id: invoiceId } = await siteInvoice(t.db, admin, proposalId, "2099-01-01");
        return { proposalId, invoiceId };
      };

      const pay = (invoiceId: number, amountCents: number) =>
        recordPayment(t.db, admin, invoiceId, { amountCents, currency: "USD", method: "bank_transfer", receivedAt: new Date() });
      const refund = (invoiceId: number, paymentId: number, amountCents: number) =>
        recordRefund(t.db, admin, invoiceId, { paymentId, amountCents, currency: "USD", receivedAt: new Date() });

      for (let batch = 0; batch < batches; batch++) {
        const targets = [];
        for (let i = 0; i < pairs; i++) {
          const target = await prepare(batch * pairs + i);
          // Paid before the acceptance: it earns its entry when the client accepts.
          const first = await pay(target.invoiceId, 30_001);
          targets.push({ ...target, firstId: first.payment.id });
        }
        // Each proposal at once: the acceptance, a refund of the first payment and a second payment,
        // the acceptance started at another moment of the money writes each time (0–450 ms).
        if (name === "postgres") await slowMoneyWrites(t.db, true);
        const results = await Promise.all(
          targets.map(({ proposalId, invoiceId, firstId }, i) =>
            Promise.all([
              sleep(((batch * pairs + i) % 10) * 50).then(() =>
                acceptOffer(t.db, client, proposalId, { typedName: "Ann Baker", version: 1 }, META),
              ),
              refund(invoiceId, firstId, 10_000),
              pay(invoiceId, 20_000),
            ]),
          ),
        ).finally(() => (name === "postgres" ? slowMoneyWrites(t.db, false) : undefined));
        for (const [i, { proposalId, invoiceId, firstId }] of targets.entries()) {
          const [accepted, refunded, second] = results[i]!;
          expect(accepted.changed).toBe(true);
          const entries = await t.db
            .select()
            .from(commissionEntries)
            .where(eq(commissionEntries.proposalId, proposalId))
            .orderBy(commissionEntries.paymentId);
          // Later, everything is refunded: the ledger of the proposal comes back to exactly 0.
          await refund(invoiceId, firstId, 20_001);
          await refund(invoiceId, second.payment.id, 20_000);
          const all = await t.db.select().from(commissionEntries).where(eq(commissionEntries.proposalId, proposalId));
          outcomes.push({
            entries: entries.map((e) => [e.paymentId, e.kind, e.baseCents, e.amountCents]),
            total: all.reduce((sum, e) => sum + e.amountCents, 0),
            count: all.length,
          });
          // 15 %: +45.00 for 300.01, −15.00 for the 100.00 refunded, +30.00 for 200.00 — each once.
          expected.push({
            entries: [
              [firstId, "payment", 30_001, 4_500],
              [refunded.payment.id, "refund", -10_000, -1_500],
              [second.payment.id, "payment", 20_000, 3_000],
            ].sort((a, b) => (a[0] as number) - (b[0] as number)) as Outcome["entries"],
            total: 0,
            count: 5,
          });
        }
      }
      expect(outcomes).toEqual(expected);
    },
  );

  it(
    "a payment refunded in parts, at once, makes entries that sum to the cent to its own (largest remainder)",
    { timeout: 300_000 },
    async () => {
      const { t, s, admin } = ctx;
      const ambassador = await makeAmbassador(s);
      const client = await makeClient(s, { verified: true });
      const proposalId = await insertProposal(t.db, { ambassadorId: ambassador.id, clientId: client.id, status: "pending" });
      await saveOffer(
        t.db,
        admin,
        proposalId,
        {
          projectName: "Split",
          scope: "Build it.",
          items: [{ description: "Site", quantity: 1, unitPriceCents: 100_000 }],
          timeline: "1 week",
          deposit: null,
          validUntil: "2099-12-31",
        },
        "send",
        { cardPayments: true },
      );
      await acceptOffer(t.db, client, proposalId, { typedName: "Ann Baker", version: 1 }, META);
      const { id: invoiceId } = await siteInvoice(t.db, admin, proposalId, "2099-01-01");
      // 15 % of 333.33 is 49.9995 → 50.00; of 111.11, 16.6665 → 16.67: three such parts rounded
      // each on their own would take back 50.01.
      const { payment } = await recordPayment(t.db, admin, invoiceId, {
        amountCents: 33_333,
        currency: "USD",
        method: "bank_transfer",
        receivedAt: new Date(),
      });
      await Promise.all(
        [11_111, 11_111, 11_111].map((amountCents) =>
          recordRefund(t.db, admin, invoiceId, { paymentId: payment.id, amountCents, currency: "USD", receivedAt: new Date() }),
        ),
      );
      const entries = await t.db
        .select()
        .from(commissionEntries)
        .where(eq(commissionEntries.invoiceId, invoiceId))
        .orderBy(commissionEntries.id);
      expect(entries.map((e) => e.amountCents)).toEqual([5_000, -1_667, -1_666, -1_667]);
      expect(entries.reduce((sum, e) => sum + e.amountCents, 0)).toBe(0);
    },
  );
});
