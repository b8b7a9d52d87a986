/**
 * The router context key of the per-request facts the server knows and routes need
 * (set by `server/app.ts` for every request). It lives in lib so that lib helpers
 * (form actions, request shortcuts) can read it without importing anything above lib.
 */
import { createContext } from "react-router";

/** Per-request facts the server knows and routes need. */
export interface RequestInfo {
  /** Client IP as resolved by express (`trust proxy` aware). */
  ip: string;
  /** Content-Security-Policy nonce for this response's scripts. */
  nonce: string;
  /** This request's id: in every log line about it and in the X-Request-Id response header. */
  requestId: string;
  /** Facts for the request's log line, filled in while it is answered (the signed-in user's id). */
  log: {
    userId?: string;
    /** Set when a loader, action or middleware failed because the database could not be reached: the 500 becomes a 503 (issue #36). */
    databaseUnavailable?: boolean;
  };
}

export const requestInfoContext = createContext<RequestInfo>();
