import { describe, expect, it } from "vitest";
import { redactPath } from "./redact-path";

describe("redactPath (issue #36: token-bearing links never reach the log)", () => {
  it.each([
    ["/i/tok_abcdef123", "/i/[redacted]"],
    ["/i/tok_abcdef123/pdf", "/i/[redacted]/pdf"],
    ["/i/tok_abcdef123.data", "/i/[redacted].data"],
    ["/i/tok_abcdef123?_data=x", "/i/[redacted]"],
    ["/invitations/inv-secret-1", "/invitations/[redacted]"],
    ["/invitations/inv-secret-1.data", "/invitations/[redacted].data"],
    ["/verify/cert-secret-2", "/verify/[redacted]"],
    ["/proposals/12/certificate/cert-secret-3", "/proposals/12/certificate/[redacted]"],
    ["/admin/proposals/12/certificate/cert-secret-4", "/admin/proposals/12/certificate/[redacted]"],
    ["/account/my-data/export-secret-5", "/account/my-data/[redacted]"],
    ["/reset-password?token=reset-secret-6", "/reset-password"],
    ["/verify-email?token=verify-secret-7&callbackURL=/", "/verify-email"],
    ["/account/confirm-email?token=confirm-secret-8", "/account/confirm-email"],
    ["http://portal.example/i/tok_abs_9?x=1", "/i/[redacted]"],
    ["http://portal.example", "/"],
  ])("%s is logged as %s", (url, logged) => {
    expect(redactPath(url)).toBe(logged);
  });

  it("leaves paths without a secret as they are", () => {
    for (const path of [
      "/",
      "/about",
      "/invoices",
      "/view-invoice/12",
      "/view-invoice/12/pdf",
      "/proposals/12",
      "/admin/proposals/12/files/3",
      "/verify-email",
      "/account",
    ]) {
      expect(redactPath(path)).toBe(path);
    }
  });
});
