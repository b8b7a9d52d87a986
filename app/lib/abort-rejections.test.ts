import { describe, expect, it } from "vitest";
import { ignoreAbortRejections, isAbortRejection } from "./abort-rejections";

describe("cancelled requests are no uncaught errors", () => {
  it("recognises an abort without a reason (the router's) and only that", () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortRejection(controller.signal.reason)).toBe(true);
    expect(isAbortRejection(new DOMException("The user aborted a request.", "AbortError"))).toBe(true);
    expect(isAbortRejection(new DOMException("late", "TimeoutError"))).toBe(false);
    expect(isAbortRejection(new Error("signal is aborted without reason"))).toBe(false);
    expect(isAbortRejection(undefined)).toBe(false);
    expect(isAbortRejection("AbortError")).toBe(false);
  });

  it("marks an AbortError rejection handled, leaves others, and stops when removed", () => {
    const target = new EventTarget();
    const stop = ignoreAbortRejections(target as unknown as Window);
    const rejection = (reason: unknown) => {
      const event = new Event("unhandledrejection", { cancelable: true }) as Event & { reason: unknown };
      event.reason = reason;
      target.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(rejection(new DOMException("signal is aborted without reason", "AbortError"))).toBe(true);
    expect(rejection(new Error("boom"))).toBe(false);
    stop();
    expect(rejection(new DOMException("signal is aborted without reason", "AbortError"))).toBe(false);
  });
});
