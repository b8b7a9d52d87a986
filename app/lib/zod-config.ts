/**
 * Zod runs without `new Function` (its JIT probe would be reported as a Content-Security-Policy
 * eval violation, since our CSP forbids 'unsafe-eval'). Imported once by the root module.
 */
import { z } from "zod";

z.config({ jitless: true });
