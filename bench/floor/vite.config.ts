import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/** The framework floor's build (bench/floor/server.mjs): React Router's plugin and nothing else. */
export default defineConfig({
  plugins: [reactRouter()],
  // Quiet: the bench prints its own lines.
  logLevel: "warn",
});
