import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it, vi } from "vitest";
import { withRequestMemo } from "#app/db/request-memo.server";
import { auditEvent, brandLogo, mailOutbox, settings } from "#app/db/schema";
import { queueNotification, ORIGIN_TOKEN } from "#app/features/mail/notifications.server";
import { testDatabases } from "../../../tests/helpers/db";
import { rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { checkLogo, isPlainSvg, LOGO_MESSAGES, MAX_LOGO_BYTES } from "./logo";
import { buildPaymentLink, contrastRatio, isHttpsTemplate, normalizeHexColor, settingsSchema } from "./settings.schema";
import { getBrand, getSettings, readLogo, removeLogo, saveLogo, saveSettings } from "./settings.server";

/** The PNG signature and the start of a header: passes the type check, but no image can be drawn from it. */
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
/** A real 1×1 PNG. */
const PNG = new Uint8Array(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
);
const svg = (inner: string) => new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${inner}</svg>`);

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  return data;
}

function fieldErrors(entries: Record<string, string>) {
  const result = parseWithZod(form({ commissionRatePercent: "15", ...entries }), { schema: settingsSchema });
  return result.status === "success" ? null : (result.error ?? {});
}

describe("brand and billing settings form", () => {
  it("normalises hex colours and refuses bad ones and ones too light for white text, with the reason", () => {
    expect(normalizeHexColor("#ABC")).toBe("#aabbcc");
    expect(normalizeHexColor(" #1D3FA3 ")).toBe("#1d3fa3");
    for (const bad of ["blue", "#12345", "1d3fa3", "#ggg000", "rgb(0,0,0)"]) expect(normalizeHexColor(bad), bad).toBeNull();
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);

    const ok = parseWithZod(form({ commissionRatePercent: "15", accentColor: "#1D3FA3" }), { schema: settingsSchema });
    expect((ok as { value: { accentColor: string } }).value.accentColor).toBe("#1d3fa3");
    expect(fieldErrors({ accentColor: "blue" })?.accentColor).toEqual(["Enter the accent colour as a hex code like #1d3fa3."]);
    const yellow = fieldErrors({ accentColor: "#ffff00" })?.accentColor?.[0];
    expect(yellow).toContain("White text on #ffff00 has a contrast of only 1");
    expect(yellow).toContain("(at least 4.5:1 is needed). Choose a darker colour.");
    // #767676 is the lightest grey that passes 4.5:1 on white; #777777 does not.
    expect(fieldErrors({ accentColor: "#767676" })).toBeNull();
    expect(fieldErrors({ accentColor: "#777777" })?.accentColor?.[0]).toContain("Choose a darker colour.");
  });

  it("accepts only https payment links, and fills in the number and amount", () => {
    expect(isHttpsTemplate("https://pay.example.com/{number}?amount={amount}")).toBe(true);
    for (const bad of [
      "http://pay.example.com/{number}",
      "javascript:alert(1)//https://",
      "ftp://x",
      "https://",
      "pay.example.com",
      "https://user:pw@pay.example.com/",
      'https://x.example/"><script>',
    ]) {
      expect(isHttpsTemplate(bad), bad).toBe(false);
      expect(fieldErrors({ paymentLinkTemplate: bad })?.paymentLinkTemplate?.[0], bad).toMatch(/must be a full https:\/\/ address/);
    }
    expect(
      buildPaymentLink("https://pay.example.com/i/{number}?amount={amount}&c={currency}", {
        number: "INV-2026-0001",
        amountCents: 123_450,
        currency: "USD",
      }),
    ).toBe("https://pay.example.com/i/INV-2026-0001?amount=1234.50&c=USD");
    expect(buildPaymentLink("", { number: "INV-1", amountCents: 5, currency: "USD" })).toBeNull();
    expect(buildPaymentLink("https://p.example/{number}", { number: "A B&C", amountCents: 5, currency: "USD" })).toBe(
      "https://p.example/A%20B%26C",
    );
  });

  it("keeps line breaks in the address and payment instructions, not in the tax ID", () => {
    const ok = parseWithZod(form({ commissionRatePercent: "15", companyAddress: "1 Road\nTown", paymentInstructions: "IBAN\tX\nBIC Y" }), {
      schema: settingsSchema,
    });
    expect((ok as { value: unknown }).value).toMatchObject({ companyAddress: "1 Road\nTown", paymentInstructions: "IBAN\tX\nBIC Y" });
    expect(fieldErrors({ taxId: "GB\n1" })?.taxId).toEqual(["Tax ID contains characters that are not allowed."]);
  });
});

describe("logo check", () => {
  it("recognises PNG, JPEG and plain SVG by their content; refuses other files and anything over 200 KB", () => {
    expect(checkLogo(PNG)).toEqual({ type: "image/png" });
    expect(checkLogo(PNG_HEAD)).toEqual({ type: "image/png" }); // the whole image is checked on save
    expect(checkLogo(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toEqual({ type: "image/jpeg" });
    expect(checkLogo(svg('<title>Acme</title><circle cx="5" cy="5" r="4" fill="#1d3fa3"/>'))).toEqual({ type: "image/svg+xml" });
    expect(checkLogo(new TextEncoder().encode('<?xml version="1.0"?>\n<svg><rect width="1" height="1"/></svg>'))).toEqual({
      type: "image/svg+xml",
    });
    expect(checkLogo(new TextEncoder().encode("GIF89a......"))).toEqual({ error: LOGO_MESSAGES.wrongType });
    expect(checkLogo(new TextEncoder().encode("<html><body>hi</body></html>"))).toEqual({ error: LOGO_MESSAGES.wrongType });
    expect(checkLogo(new Uint8Array())).toEqual({ error: LOGO_MESSAGES.missing });
    const big = new Uint8Array(MAX_LOGO_BYTES + 1);
    big.set(PNG);
    expect(checkLogo(big)).toEqual({ error: LOGO_MESSAGES.tooLarge });
    const justRight = new Uint8Array(MAX_LOGO_BYTES);
    justRight.set(PNG);
    expect(checkLogo(justRight)).toEqual({ type: "image/png" });
  });

  it("refuses every SVG that could run script or load anything", () => {
    const hostile = [
      "<script>alert(1)</script>",
      "<SCRIPT>alert(1)</SCRIPT>",
      '<rect onload="alert(1)"/>',
      '<rect a=">" onload="alert(1)"/>',
      '<a href="javascript:alert(1)"><rect/></a>',
      '<use href="https://evil.example/x.svg#a"/>',
      '<use xlink:href="data:image/svg+xml;base64,AAAA"/>',
      '<image href="https://evil.example/t.png"/>',
      "<foreignObject><div>x</div></foreignObject>",
      "<style>@import url(https://evil.example/a.css);</style>",
      '<rect style="fill:url(https://evil.example/t)"/>',
      '<animate attributeName="href" to="javascript:alert(1)"/>',
      '<set attributeName="onmouseover" to="alert(1)"/>',
      "<iframe src=x></iframe>",
      '<rect fill="&#106;avascript:"/>',
      "<![CDATA[<script>alert(1)</script>]]>",
    ];
    for (const inner of hostile) expect(checkLogo(svg(inner)), inner).toEqual({ error: LOGO_MESSAGES.unsafeSvg });
    expect(checkLogo(new TextEncoder().encode('<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>'))).toEqual({
      error: LOGO_MESSAGES.unsafeSvg,
    });
    // Internal references and gradients are fine.
    expect(
      isPlainSvg(
        '<svg><defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient><path id="p" d="M0 0h1"/></defs><use href="#p" fill="url(#g)"/></svg>',
      ),
    ).toBe(true);
  });
});

describe.each(testDatabases())("brand settings on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  const base = { companyName: "Acme Web", supportEmail: "", defaultTimeline: "", allowNewClients: true, commissionRateBps: 1500 };

  it("saves the billing fields and accent colour; refuses a bad colour or an http link without saving anything", async () => {
    const { t, admin } = ctx;
    await saveSettings(
      t.db,
      admin,
      {
        ...base,
        companyAddress: "1 Harbour Road\nPortsmouth",
        taxId: "GB123",
        paymentInstructions: "IBAN GB00 1234",
        paymentLinkTemplate: "https://pay.example.com/{number}?amount={amount}",
        accentColor: "#0F5132",
      },
      { cardPayments: false },
    );
    expect(await getSettings(t.db)).toMatchObject({
      companyAddress: "1 Harbour Road\nPortsmouth",
      taxId: "GB123",
      paymentInstructions: "IBAN GB00 1234",
      paymentLinkTemplate: "https://pay.example.com/{number}?amount={amount}",
      accentColor: "#0f5132",
    });
    const before = await snapshot(t.db);
    const badColour = await rejectionOf(
      saveSettings(t.db, admin, { ...base, companyName: "Changed", accentColor: "#fafafa" }, { cardPayments: false }),
    );
    expect(badColour).toMatchObject({ status: 400, fieldErrors: { accentColor: [expect.stringContaining("Choose a darker colour.")] } });
    const badLink = await rejectionOf(
      saveSettings(
        t.db,
        admin,
        { ...base, companyName: "Changed", paymentLinkTemplate: "http://pay.example.com" },
        { cardPayments: false },
      ),
    );
    expect(badLink).toMatchObject({ status: 400, fieldErrors: { paymentLinkTemplate: [expect.stringContaining("https://")] } });
    expect(await snapshot(t.db)).toEqual(before);
    // Fields left out keep their values.
    await saveSettings(t.db, admin, { ...base, companyName: "Acme 2" }, { cardPayments: false });
    expect(await getSettings(t.db)).toMatchObject({ companyName: "Acme 2", taxId: "GB123", accentColor: "#0f5132" });
    expect(await getBrand(t.db)).toEqual({ companyName: "Acme 2", accentColor: "#0f5132", logoPath: null });
  });

  it("stores a valid logo under its content hash, refuses a hostile one without writing, removes it; audited", async () => {
    const { t, s, admin } = ctx;
    const before = await snapshot(t.db);
    const hostile = await rejectionOf(saveLogo(t.db, admin, svg("<script>alert(1)</script>")));
    expect(hostile).toMatchObject({ status: 400, fieldErrors: { logo: [LOGO_MESSAGES.unsafeSvg] } });
    expect((await rejectionOf(saveLogo(t.db, admin, new Uint8Array(MAX_LOGO_BYTES + 10)))).fieldErrors).toEqual({
      logo: [LOGO_MESSAGES.tooLarge],
    });
    // A damaged PNG would crash the PDF decoder later (png-check.server.ts): refused on save.
    expect((await rejectionOf(saveLogo(t.db, admin, PNG_HEAD))).fieldErrors).toEqual({ logo: [LOGO_MESSAGES.pngDamaged] });
    expect(await t.db.select().from(brandLogo)).toEqual([]);
    expect(await snapshot(t.db)).toEqual(before);
    expect((await rejectionOf(saveLogo(t.db, await makeClient(s), PNG))).status).toBe(403);

    const path = await saveLogo(t.db, admin, PNG);
    expect(path).toMatch(/^\/brand\/logo\/[0-9a-f]{20}$/);
    expect((await getBrand(t.db)).logoPath).toBe(path);
    const served = await readLogo(t.db, path.split("/").pop()!);
    expect(served?.contentType).toBe("image/png");
    expect([...served!.bytes]).toEqual([...PNG]);
    expect(await readLogo(t.db, "0".repeat(20))).toBeNull();
    expect(await readLogo(t.db, "../../etc/passwd")).toBeNull();

    // Notifications show the logo (hosted on the site's origin) and the accent colour; the text part stays.
    await saveSettings(t.db, admin, { ...base, accentColor: "#0f5132" }, { cardPayments: false });
    // With a settings row the logo comes with it: on a page's request view, the header's brand and
    // the settings are one statement.
    const view = withRequestMemo(t.db);
    const selects = vi.spyOn(view, "select");
    expect(await getBrand(view)).toEqual({ companyName: "Acme Web", accentColor: "#0f5132", logoPath: path });
    expect(await getSettings(view)).toMatchObject({ companyName: "Acme Web", accentColor: "#0f5132" });
    expect(selects).toHaveBeenCalledTimes(1);
    await queueNotification(t.db, {
      to: "x@example.com",
      subject: "Hello",
      lines: ["Line one"],
      link: { label: "Open", path: "/invoices" },
    });
    const last = (await t.db.select().from(mailOutbox).orderBy(mailOutbox.id)).at(-1)!;
    expect(last.html).toContain(`<img src="${ORIGIN_TOKEN}${path}"`);
    expect(last.html).toContain("background:#0f5132");
    expect(last.text).toContain("Line one");
    expect(last.text).toContain(`Open: ${ORIGIN_TOKEN}/invoices`);

    expect(await removeLogo(t.db, admin)).toBe(true);
    expect((await getBrand(t.db)).logoPath).toBeNull();
    const audits = await t.db.select().from(auditEvent);
    expect(audits.filter((a) => JSON.stringify(a.after ?? a.before).includes("logo"))).toHaveLength(2);
    expect(await t.db.select().from(settings)).toHaveLength(1);
  });
});
