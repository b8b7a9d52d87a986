/**
 * Signed invoice links (docs/product.md#invoice-link): the token opens exactly its invoice for its
 * client for 60 days; forged, altered, expired, another invoice's, a deleted invoice's or a
 * deactivated client's link is a 404 — on PGlite and PostgreSQL.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { invoice, user } from "#app/db/schema";
import { generateInvoice } from "#app/features/invoices/invoices.admin.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, rejectionOf } from "../../../tests/helpers/admin-data";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import type { Actor } from "#app/features/users/actor";
import { INVOICE_LINK_INVALID, INVOICE_LINK_TTL_MS, openSignedInvoice, signedInvoicePath } from "./invoice-link.server";

describe.each(testDatabases())("signed invoice links on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let client: Actor;
  let ids: number[];
  const token = (path: string) => path.replace(/^\/i\//, "");

  beforeEach(async () => {
    client = await makeClient(ctx.s);
    ids = [];
    for (const n of [1, 2]) {
      const proposalId = await insertProposal(ctx.t.db, { clientId: client.id, projectName: `P${n}` });
      ids.push(
        (
          await generateInvoice(
            ctx.t.db,
            ctx.admin,
            proposalId,
            { dueDate: "2030-01-01", items: [{ description: "x", amountCents: 100 }] },
            undefined,
            { cardPayments: true },
          )
        ).id,
      );
    }
  });

  it("opens its own invoice for its client only, for 60 days", async () => {
    const { t } = ctx;
    const now = new Date();
    const path = await signedInvoicePath(t.db, ids[0]!, client.id, now);
    expect(path).toMatch(new RegExp(`^/i/${ids[0]}\\.\\d+\\.[A-Za-z0-9_-]{32}$`));
    expect(await openSignedInvoice(t.db, token(path), now)).toEqual({
      invoiceId: ids[0],
      client: { id: client.id, role: "client", email: client.email, organisationId: expect.any(Number) },
    });
    const later = new Date(now.getTime() + INVOICE_LINK_TTL_MS - 1000);
    expect((await openSignedInvoice(t.db, token(path), later)).invoiceId).toBe(ids[0]);
    const expired = new Date(now.getTime() + INVOICE_LINK_TTL_MS + 1000);
    expect(await rejectionOf(openSignedInvoice(t.db, token(path), expired))).toMatchObject({ status: 404, message: INVOICE_LINK_INVALID });
  });

  it("refuses forged and altered tokens, another invoice's id, a deleted invoice and a deactivated client", async () => {
    const { t } = ctx;
    const path = token(await signedInvoicePath(t.db, ids[0]!, client.id));
    const [id, expires, mac] = path.split(".");
    for (const forged of [
      "",
      "garbage",
      `${ids[1]}.${expires}.${mac}`, // another invoice with the same signature
      `${id}.${Number(expires) + 1}.${mac}`, // a longer life
      `${id}.${expires}.${"A".repeat(32)}`,
      `${id}.${expires}.${mac}x`,
      `99999999999.${expires}.${mac}`,
    ]) {
      expect(await rejectionOf(openSignedInvoice(t.db, forged)), forged).toMatchObject({ status: 404 });
    }
    // Signed for another client: refused.
    const other = await makeClient(ctx.s);
    expect((await rejectionOf(openSignedInvoice(t.db, token(await signedInvoicePath(t.db, ids[0]!, other.id))))).status).toBe(404);
    // The client deactivated: refused; reactivated: works again.
    await t.db.update(user).set({ banned: true }).where(eq(user.id, client.id));
    expect((await rejectionOf(openSignedInvoice(t.db, path))).status).toBe(404);
    await t.db.update(user).set({ banned: false }).where(eq(user.id, client.id));
    expect((await openSignedInvoice(t.db, path)).invoiceId).toBe(ids[0]);
    // The invoice deleted: refused.
    await t.db.delete(invoice).where(eq(invoice.id, ids[0]!));
    expect((await rejectionOf(openSignedInvoice(t.db, path))).status).toBe(404);
  });
});
