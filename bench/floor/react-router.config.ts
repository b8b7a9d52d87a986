import type { Config } from "@react-router/dev/config";

/**
 * The framework floor's React Router config (bench/floor/server.mjs): server rendering with the same
 * future flags as the app's own react-router.config.ts, built into bench/floor/build.
 */
export default {
  ssr: true,
  appDirectory: "app",
  buildDirectory: "build",
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
