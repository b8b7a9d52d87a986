import type { IncomingMessage } from "node:http";
import express from "express";
import { describe, expect, it, vi } from "vitest";
import { forwardedForWarning, httpsDetector } from "./security";

/** express's compiled `trust proxy` function for a TRUST_PROXY value. */
const trustFn = (value: boolean | number | string) =>
  express().set("trust proxy", value).get("trust proxy fn") as (a: string, i: number) => boolean;

const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe("the X-Forwarded-For warning", () => {
  it("is written once when no proxy is trusted and requests carry X-Forwarded-For", () => {
    const lines: string[] = [];
    const check = forwardedForWarning(trustFn(false), (line) => lines.push(line));
    check(request("127.0.0.1"));
    expect(lines).toEqual([]);
    check(request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }));
    check(request("10.0.0.7", { "x-forwarded-for": "203.0.113.10" }));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "warn", event: "untrusted-forwarded-for", remoteAddress: "127.0.0.1" });
    expect(lines[0]).not.toContain("203.0.113.9");
  });

  it("stays silent for a trusted proxy, and warns for an address outside the trusted subnet", () => {
    const lines: string[] = [];
    const check = forwardedForWarning(trustFn("loopback, 172.18.0.0/16"), (line) => lines.push(line));
    check(request("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }));
    check(request("172.18.0.5", { "x-forwarded-for": "203.0.113.9" }));
    expect(lines).toEqual([]);
    check(request("192.0.2.1", { "x-forwarded-for": "203.0.113.9" }));
    expect(lines).toHaveLength(1);
  });
});

describe("HTTPS detection outside express", () => {
  it("believes X-Forwarded-Proto from a trusted proxy only, and skips the trust check without the header", () => {
    const trust = vi.fn(trustFn("loopback"));
    const isHttps = httpsDetector(trust);
    expect(isHttps(request("127.0.0.1", { "x-forwarded-proto": "https" }))).toBe(true);
    expect(isHttps(request("127.0.0.1", { "x-forwarded-proto": "http, https" }))).toBe(false);
    expect(isHttps(request("192.0.2.1", { "x-forwarded-proto": "https" }))).toBe(false);
    expect(trust).toHaveBeenCalledTimes(3);
    expect(isHttps(request("127.0.0.1"))).toBe(false);
    expect(trust).toHaveBeenCalledTimes(3);
    expect(isHttps({ headers: {}, socket: { encrypted: true } } as unknown as IncomingMessage)).toBe(true);
  });
});
