import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { pdfText } from "../../../tests/helpers/pdf";
import { renderInvoicePdf } from "./invoice-pdf.server";

describe("renderInvoicePdf", () => {
  it("prints the number, dates, bill-from and bill-to, items, total, status and how to pay", async () => {
    const bytes = await renderInvoicePdf({
      number: "INV-2026-0042",
      issuedAt: new Date("2026-11-02T10:00:00Z"),
      dueDate: "2026-12-01",
      status: "overdue",
      currency: "USD",
      company: {
        name: "Rivera Web Studio",
        email: "billing@example.com",
        address: "12 Harbour Road\nPortsmouth PO1 2AB",
        taxId: "GB123456789",
      },
      client: { name: "Blue Cafe", email: "owner@bluecafe.example", phone: "301 555 0100", website: "https://bluecafe.example" },
      payment: { instructions: "IBAN GB00 TEST 1234 5678", payLink: "https://pay.example.com/INV-2026-0042?amount=4750.50" },
      projectName: "New website",
      items: [
        { description: "Design", amountCents: 150_000 },
        { description: "Development", amountCents: 325_050 },
      ],
      totalCents: 475_050,
    });
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(bytes);
    for (const expected of [
      "INV-2026-0042",
      "Nov 2, 2026",
      "Dec 1, 2026",
      "OVERDUE",
      "Rivera Web Studio",
      "Blue Cafe",
      "owner@bluecafe.example",
      "Design",
      "$1,500.00",
      "Development",
      "$3,250.50",
      "$4,750.50",
      "12 Harbour Road",
      "Portsmouth PO1 2AB",
      "Tax ID: GB123456789",
      "billing@example.com",
      "301 555 0100",
      "https://bluecafe.example",
      "IBAN GB00 TEST 1234 5678",
      "https://pay.example.com/INV-2026-0042?amount=4750.50",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("flows many items onto further pages", async () => {
    const items = Array.from({ length: 80 }, (_, i) => ({ description: `Line item number ${i + 1}`, amountCents: 1000 }));
    const bytes = await renderInvoicePdf({
      number: "INV-2026-0001",
      issuedAt: new Date(),
      dueDate: "2026-12-01",
      status: "pending",
      currency: "USD",
      company: { name: "Co", email: "", address: "", taxId: "" },
      client: { name: "C", email: "c@example.com", phone: "", website: "" },
      payment: { instructions: "", payLink: null },
      projectName: null,
      items,
      totalCents: 80_000,
    });
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    expect(pdf.numPages).toBeGreaterThan(1);
    const text = await pdfText(bytes);
    expect(text).toContain("Line item number 80");
    expect(text).toContain("$800.00");
    expect(text).not.toContain("How to pay");
    expect(text).not.toContain("Tax ID");
  });
});
